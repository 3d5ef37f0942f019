/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-sweep.c — `bramah-cli sweep CIRCUIT --vary ... --metric ...`: a
 * parameter study (engine/study/hyd-study.h), one CSV row per run, sorted
 * by run and the same bytes for any --jobs or number of MPI ranks
 * (docs/cli.md, "sweep").
 *
 * Runs are handed out one at a time to whoever is free (threads of a
 * HydStudyPool; with MPI, rank 0 also hands them to the other ranks), so
 * a study of runs whose costs differ by orders of magnitude keeps every
 * worker busy. With -o OUT.csv each row is appended to OUT.csv and flushed
 * as its run ends; at the end the file is replaced by the rows sorted by
 * run. --resume reads an unfinished OUT.csv, keeps its rows and runs the
 * rest. --timeout stops a run over its wall-clock limit (a row "timeout").
 * The runs run in child processes (HydStudyProcess; --no-isolate: in
 * threads), so that one that crashes is a row "crashed" instead of the end
 * of the study. */
#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef BRAMAH_HAVE_MPI
#include <mpi.h>
#endif

#include "cli-circuit.h"
#include "cli-commands.h"
#include "cli-diagnostic.h"
#include "cli-study.h"
#include "hyd-study.h"

/* ---------- what sweep and optimize share ---------- */

guint
hyd_cli_study_run_entries (HydCliRunArgs *args, GOptionEntry *entries)
{
  GOptionEntry all[HYD_CLI_RUN_N_ENTRIES];
  hyd_cli_run_entries (args, all);
  guint n = 0;
  for (guint k = 0; k < HYD_CLI_RUN_N_ENTRIES; k++)
    if (strcmp (all[k].long_name, "stats") != 0)
      entries[n++] = all[k];
  return n;
}

static int
study_error (GOptionContext *ctx, const GError *error)
{
  if (g_error_matches (error, HYD_STUDY_ERROR, HYD_STUDY_ERROR_SPEC))
    return hyd_cli_usage_error (ctx, "%s", error->message);
  return hyd_cli_failed_error (error);
}

int
hyd_cli_study_prepare (const char *path, const HydCliRunArgs *args, GOptionContext *ctx, char **vary,
                       char **metrics, HydStudyDesign design, guint64 n, guint64 seed, guint jobs,
                       HydStudy **study_out)
{
  g_autoptr (HydCircuit) circuit = NULL;
  g_autoptr (HydSystem) sys = NULL;
  g_auto (HydSimOptions) sim = { 0 };
  int st = hyd_cli_run_prepare (path, args, ctx, &circuit, &sim, &sys);
  if (st)
    return st;
  g_autoptr (HydStudy) study = hyd_study_new (circuit, &sim, args->fd_jacobian);
  g_autoptr (GError) error = NULL;
  for (guint k = 0; vary && vary[k]; k++)
    if (!hyd_study_add_vary (study, vary[k], &error))
      return study_error (ctx, error);
  for (guint k = 0; metrics && metrics[k]; k++)
    if (!hyd_study_add_metric (study, metrics[k], &error))
      return study_error (ctx, error);
  hyd_study_set_design (study, design, n, seed);
  if (!hyd_study_prepare (study, &error))
    return study_error (ctx, error);
  /* a run keeps t and its metrics' variables at every sample */
  double n_samples = hyd_run_count_samples (&sim);
  if (!(n_samples <= HYD_RUN_MAX_SAMPLES))
    return hyd_cli_failed ("%s: t_end %g s with output_interval %g s gives %.0f output samples a run, more than "
                           "the %.0f a run may report: raise simulation.output_interval (--output-interval) or "
                           "lower simulation.t_end (--t-end)",
                           hyd_cli_qpath (path), sim.t_end, sim.output_interval, n_samples, HYD_RUN_MAX_SAMPLES);
  double need = n_samples * (1.0 + hyd_study_get_n_metrics (study)) * sizeof (double) * jobs;
  guint64 avail;
  if (hyd_cli_memory_available (&avail) && need > 0.5 * (double) avail)
    {
      g_autofree char *need_s = hyd_cli_format_size (need);
      g_autofree char *avail_s = hyd_cli_format_size ((double) avail);
      return hyd_cli_failed ("%s: %u runs at a time of %.0f samples each keep up to %s, more than half the %s "
                             "of memory available: fewer --jobs, a larger --output-interval or a shorter --t-end",
                             hyd_cli_qpath (path), jobs, n_samples, need_s, avail_s);
    }
  *study_out = g_steal_pointer (&study);
  return 0;
}

/* ---------- progress on stderr ---------- */

typedef struct {
  guint64 total, done, failed, skipped;
  guint64 remote;   /* rows from other MPI ranks */
  int ranks;
  gint64 start, last;
  gboolean tty, quiet;
  int width;   /* of the last line written in place */
} Progress;

static void
progress_print (Progress *p, gboolean final)
{
  if (p->quiet)
    return;
  gint64 now = g_get_monotonic_time ();
  if (!final && now - p->last < (p->tty ? 500000 : 10000000))
    return;
  p->last = now;
  double secs = (now - p->start) / 1e6;
  guint64 new_done = p->done - p->skipped;
  double rate = secs > 0 ? new_done / secs : 0;
  g_autoptr (GString) line = g_string_new (NULL);
  g_string_append_printf (line, "sweep: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " runs, %" G_GUINT64_FORMAT
                          " failed", p->done, p->total, p->failed);
  if (p->skipped)
    g_string_append_printf (line, " (%" G_GUINT64_FORMAT " from the file)", p->skipped);
  if (final)
    g_string_append_printf (line, ", %.3g runs/s, %.1f s", rate, secs);
  if (final && p->ranks > 1)
    g_string_append_printf (line, "; %d MPI ranks, %" G_GUINT64_FORMAT " runs on ranks other than 0", p->ranks,
                            p->remote);
  else if (!final && rate > 0)
    g_string_append_printf (line, ", %.3g runs/s, about %.0f s left", rate, (p->total - p->done) / rate);
  if (p->tty)
    {
      int w = (int) line->len;
      fprintf (stderr, "\r%s%*s%s", line->str, MAX (0, p->width - w), "", final ? "\n" : "");
      p->width = w;
    }
  else
    fprintf (stderr, "%s\n", line->str);
  fflush (stderr);
}

/* ---------- the rows ---------- */

typedef struct {
  const char *path;       /* -o, or NULL: stdout at the end */
  int fd;                 /* the unsorted rows as they finish */
  guint64 size;           /* of that file */
  guint64 *offset;        /* per run: where its row starts, G_MAXUINT64 when none */
  guint32 *length;
  GPtrArray *rows;        /* without -o: per run, its row */
  int error;              /* the first failed write's errno */
} Rows;

static gboolean
rows_have (const Rows *r, guint64 run)
{
  return r->path ? r->offset[run] != G_MAXUINT64 : r->rows->pdata[run] != NULL;
}

static gboolean
write_all (int fd, const char *data, gsize len)
{
  while (len > 0)
    {
      ssize_t w = write (fd, data, len);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return FALSE;
      data += w;
      len -= (gsize) w;
    }
  return TRUE;
}

/* A finished run's row: appended to the file (write(2), so it is the
 * kernel's as the call returns: a study killed later keeps it). */
static void
rows_add (Rows *r, Progress *p, guint64 run, char *row, gboolean ok)
{
  if (rows_have (r, run))
    {
      g_free (row);
      return;
    }
  p->done++;
  p->failed += !ok;
  if (r->path == NULL)
    {
      r->rows->pdata[run] = row;
      return;
    }
  gsize len = strlen (row);
  if (r->error == 0 && !write_all (r->fd, row, len))
    r->error = errno ? errno : EIO;
  r->offset[run] = r->size;
  r->length[run] = (guint32) len;
  r->size += len;
  g_free (row);
}

/* Read OUT.csv of an earlier start of this study: its header must be the
 * study's and each row's values those the design gives its run. The rows
 * are kept (offsets), a last line cut short is dropped. */
static int
rows_resume (Rows *r, HydStudy *study, const char *header, Progress *p)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  if (!g_file_get_contents (r->path, &data, &len, &error))
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return 0;
      return hyd_cli_failed ("--resume: cannot read %s: %s", hyd_cli_qpath (r->path), error->message);
    }
  gsize hlen = strlen (header);
  if (len == 0)
    return 0;
  if (len < hlen || memcmp (data, header, hlen) != 0)
    return hyd_cli_failed ("--resume: %s is not a file of this study: its first line is not '%.*s' (the "
                           "--vary and --metric given, in this order)",
                           hyd_cli_qpath (r->path), (int) hlen - 1, header);
  guint nv = hyd_study_get_n_vary (study);
  g_autofree double *values = g_new0 (double, nv + 1);
  guint64 n_runs = hyd_study_get_n_runs (study);
  gsize at = hlen;
  guint line = 2;
  while (at < len)
    {
      const char *start = data + at;
      const char *nl = memchr (start, '\n', len - at);
      if (nl == NULL)
        break;   /* cut short by the end of the earlier start */
      guint64 run;
      gsize llen = (gsize) (nl - start) + 1;
      if (!hyd_study_row_run (start, &run) || run >= n_runs)
        return hyd_cli_failed ("--resume: %s, line %u: not a row of this study (its run index is not one "
                               "from 0 to %" G_GUINT64_FORMAT ")", hyd_cli_qpath (r->path), line, n_runs - 1);
      /* the run's values as this study gives them */
      hyd_study_get_values (study, run, values);
      g_autofree char *expect = hyd_study_format_prefix (study, run, values);
      gsize plen = strlen (expect);
      if (llen < plen || memcmp (start, expect, plen) != 0)
        return hyd_cli_failed ("--resume: %s, line %u: run %" G_GUINT64_FORMAT " has other values than this "
                               "study gives it (another --vary, --random, --lhs or --seed?)",
                               hyd_cli_qpath (r->path), line, run);
      if (r->offset[run] == G_MAXUINT64)
        {
          r->offset[run] = at;
          r->length[run] = (guint32) llen;
          p->done++;
          p->skipped++;
          /* the status follows the values */
          p->failed += strncmp (start + plen, "ok,", 3) != 0;
        }
      at += llen;
      line++;
    }
  /* drop a row cut short */
  if (ftruncate (r->fd, (off_t) at) != 0)
    return hyd_cli_failed ("--resume: cannot truncate %s: %s", hyd_cli_qpath (r->path), g_strerror (errno));
  r->size = at;
  return 0;
}

/* The rows sorted by run: to stdout, or OUT.csv replaced (written beside
 * it and renamed). */
static int
rows_finish (Rows *r, guint64 n_runs, const char *header)
{
  g_autoptr (GError) error = NULL;
  if (r->path && r->error)
    return hyd_cli_failed ("cannot write %s: %s", hyd_cli_qpath (r->path), g_strerror (r->error));
  g_autoptr (HydCliOutput) out = hyd_cli_output_open (r->path, &error);
  if (out == NULL)
    return hyd_cli_failed_error (error);
  hyd_cli_output_puts (out, header);
  g_autofree char *buf = NULL;
  gsize cap = 0;
  for (guint64 run = 0; run < n_runs && hyd_cli_output_error (out) == 0; run++)
    {
      if (r->path == NULL)
        {
          hyd_cli_output_puts (out, r->rows->pdata[run]);
          continue;
        }
      if (r->length[run] > cap)
        {
          cap = r->length[run];
          buf = g_realloc (buf, cap);
        }
      ssize_t got = pread (r->fd, buf, r->length[run], (off_t) r->offset[run]);
      if (got != (ssize_t) r->length[run])
        return hyd_cli_failed ("cannot read back %s: %s", hyd_cli_qpath (r->path),
                               got < 0 ? g_strerror (errno) : "the file is shorter than written");
      hyd_cli_output_write (out, buf, r->length[run]);
    }
  if (!hyd_cli_output_commit (g_steal_pointer (&out), &error))
    return hyd_cli_failed_error (error);
  return 0;
}

/* ---------- MPI ---------- */

/* Was this process started by mpirun/srun (Open MPI's, PMI's or PMIx's
 * environment)? Then MPI_Init, else the study runs alone. */
static gboolean
launched_by_mpi (void)
{
  return g_getenv ("OMPI_COMM_WORLD_SIZE") != NULL || g_getenv ("PMIX_RANK") != NULL
         || g_getenv ("PMI_SIZE") != NULL;
}

#ifdef BRAMAH_HAVE_MPI
enum { TAG_ROW = 1, TAG_RUN = 2 };
/* Requests a worker rank keeps open: one run runs while the next is on
 * its way. */
#define MPI_AHEAD 2

/* A rank other than 0: take runs from rank 0, send back their rows
 * ('o' or 'f' for ok or failed, then the row), until it says -1. */
static int
mpi_worker (HydStudy *study, gboolean isolate)
{
  g_autoptr (HydStudyWorker) w = isolate ? NULL : hyd_study_worker_new (study);
  g_autoptr (HydStudyProcess) proc = isolate ? hyd_study_process_new (study) : NULL;
  g_autofree double *values = g_new0 (double, hyd_study_get_n_vary (study) + 1);
  g_autofree double *metrics = g_new0 (double, hyd_study_get_n_metrics (study) + 1);
  g_autoptr (GQueue) queue = g_queue_new ();
  int outstanding = 0;
  for (int k = 0; k < MPI_AHEAD; k++, outstanding++)
    MPI_Send ("", 0, MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
  while (outstanding > 0 || !g_queue_is_empty (queue))
    {
      while (outstanding > 0)
        {
          int flag = 1;
          if (!g_queue_is_empty (queue))
            MPI_Iprobe (0, TAG_RUN, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
          if (!flag)
            break;
          gint64 run;
          MPI_Recv (&run, 1, MPI_INT64_T, 0, TAG_RUN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          outstanding--;
          if (run >= 0)
            g_queue_push_tail (queue, GSIZE_TO_POINTER ((gsize) run + 1));
        }
      if (g_queue_is_empty (queue))
        continue;
      guint64 run = GPOINTER_TO_SIZE (g_queue_pop_head (queue)) - 1;
      hyd_study_get_values (study, run, values);
      g_autofree char *message = NULL;
      const char *status = proc ? hyd_study_process_run (proc, values, metrics, &message)
                                : hyd_study_worker_run (w, values, metrics, &message, NULL);
      g_autofree char *row = hyd_study_format_row (study, run, values, status, metrics, message);
      g_autofree char *msg = g_strconcat (strcmp (status, "ok") == 0 ? "o" : "f", row, NULL);
      MPI_Send (msg, (int) strlen (msg), MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
      outstanding++;
    }
  return 0;
}

/* Rank 0: one thread of its own runs runs (the pool), this thread hands
 * runs to the other ranks as they ask and collects their rows. It polls
 * (MPI_Iprobe, then waits for its own thread's rows up to 1 ms) rather
 * than block in MPI, which would spin on a core the runs need. */
static void
mpi_coordinate (HydStudy *study, HydStudyPool *pool, int size, Rows *rows, Progress *p)
{
  int chains = (size - 1) * MPI_AHEAD;
  gboolean local_done = FALSE;
  gint64 wait = 0;
  while (chains > 0 || !local_done)
    {
      gboolean busy = FALSE;
      int flag;
      MPI_Status status;
      while (MPI_Iprobe (MPI_ANY_SOURCE, TAG_ROW, MPI_COMM_WORLD, &flag, &status) == MPI_SUCCESS && flag)
        {
          int count;
          MPI_Get_count (&status, MPI_CHAR, &count);
          char *msg = g_malloc (count + 1);
          MPI_Recv (msg, count, MPI_CHAR, status.MPI_SOURCE, TAG_ROW, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          msg[count] = '\0';
          guint64 run;
          if (count > 1 && hyd_study_row_run (msg + 1, &run) && run < hyd_study_get_n_runs (study))
            {
              rows_add (rows, p, run, g_strdup (msg + 1), msg[0] == 'o');
              p->remote++;
            }
          g_free (msg);
          gint64 next = -1;
          guint64 take;
          if (hyd_study_pool_take (pool, &take))
            next = (gint64) take;
          else
            chains--;
          MPI_Send (&next, 1, MPI_INT64_T, status.MPI_SOURCE, TAG_RUN, MPI_COMM_WORLD);
          busy = TRUE;
        }
      guint64 run;
      char *row;
      gboolean ok;
      if (!local_done && hyd_study_pool_pop (pool, busy ? 0 : wait, &run, &row, &ok, &local_done))
        {
          rows_add (rows, p, run, row, ok);
          busy = TRUE;
        }
      else if (local_done && !busy)
        g_usleep ((gulong) MAX (wait, 50));
      wait = busy ? 50 : MIN (2 * wait + 50, 1000);
      progress_print (p, FALSE);
    }
}
#endif

/* ---------- the command ---------- */

static int
run (int argc, char **argv)
{
  g_auto (HydCliRunArgs) args = { 0 };
  g_auto (GStrv) vary = NULL, metrics = NULL;
  g_autofree char *output = NULL, *random = NULL, *lhs = NULL, *seed_text = NULL, *jobs_text = NULL;
  g_autofree char *timeout_text = NULL;
  gboolean resume = FALSE, quiet = FALSE, isolate = TRUE;
  GOptionEntry entries[HYD_CLI_RUN_N_ENTRIES + 12] = { { NULL } };
  GOptionEntry own[] = {
    { "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &vary, "A parameter and its values (SI): LO:HI:N a grid; with --random or --lhs LO:HI, uniform:LO:HI or normal:MEAN:SD; repeatable", "ID.PARAM=SPEC" },
    { "metric", 0, 0, G_OPTION_ARG_STRING_ARRAY, &metrics, "A column of each row: final, min, max, mean, rms, overshoot, settling[:BAND%], itae, ise, iae of a variable, or time_to:VAR>=X; repeatable", "KIND:VAR" },
    { "random", 0, 0, G_OPTION_ARG_STRING, &random, "N independent random samples instead of the grid", "N" },
    { "lhs", 0, 0, G_OPTION_ARG_STRING, &lhs, "N Latin-hypercube samples instead of the grid", "N" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_text, "Seed of --random and --lhs (default 1)", "S" },
    { "jobs", 'j', 0, G_OPTION_ARG_STRING, &jobs_text, "Runs at a time (default: the number of processors)", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the CSV to FILE (default: stdout, at the end)", "FILE.csv" },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, "Keep the rows already in the -o file and run only the others", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &timeout_text, "Stop a run after this much wall-clock time: its row says timeout (default: no limit)", "SECONDS" },
    { "no-isolate", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE, &isolate, "Run the runs in threads of this process: a run that crashes ends the study", NULL },
    { "isolate", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &isolate, "Run the runs in child processes (the default): a run that crashes is a row, the study goes on", NULL },
  };
  guint n = 0;
  for (guint k = 0; k < G_N_ELEMENTS (own); k++)
    entries[n++] = own[k];
  n += hyd_cli_study_run_entries (&args, entries + n);
  g_autoptr (GOptionContext) ctx = g_option_context_new ("CIRCUIT — run a parameter study and write one CSV row per run");
  g_option_context_add_main_entries (ctx, entries, NULL);

  int rank = 0, size = 1;
#ifndef BRAMAH_HAVE_MPI
  /* every rank would run the whole study and write the same file */
  if (launched_by_mpi ())
    {
      const char *world = g_getenv ("OMPI_COMM_WORLD_SIZE");
      if (world == NULL)
        world = g_getenv ("PMI_SIZE");
      if (world == NULL || strcmp (world, "1") != 0)
        return hyd_cli_failed ("sweep: this bramah-cli was built without MPI (meson -Dmpi=enabled with Debian's "
                               "libopenmpi-dev): under mpirun each rank would run the whole study; run it "
                               "without mpirun (--jobs N uses the cores of one machine)");
    }
#else
  gboolean mpi = launched_by_mpi ();
  if (mpi)
    {
      int provided;
      MPI_Init_thread (NULL, NULL, MPI_THREAD_FUNNELED, &provided);
      MPI_Comm_rank (MPI_COMM_WORLD, &rank);
      MPI_Comm_size (MPI_COMM_WORLD, &size);
    }
  /* every rank checks the same arguments; only rank 0 says what is wrong */
  int saved_stderr = -1;
  if (rank > 0)
    {
      saved_stderr = dup (2);
      int null = open ("/dev/null", O_WRONLY);
      dup2 (null, 2);
      close (null);
    }
#endif
  int st = hyd_cli_parse_options (ctx, TRUE, &argc, &argv);
  HydStudyDesign design = HYD_STUDY_DESIGN_GRID;
  gint64 n_samples = 0, seed = 1, jobs = g_get_num_processors ();
  if (st == 0 && argc != 2)
    st = hyd_cli_usage_error (ctx, "sweep takes one CIRCUIT file");
  if (st == 0 && random && lhs)
    st = hyd_cli_usage_error (ctx, "--random and --lhs exclude each other");
  if (st == 0 && random)
    {
      design = HYD_STUDY_DESIGN_RANDOM;
      if (!hyd_cli_parse_int ("--random", random, 1, 1000000000, &n_samples))
        st = HYD_CLI_EXIT_USAGE;
    }
  if (st == 0 && lhs)
    {
      design = HYD_STUDY_DESIGN_LHS;
      if (!hyd_cli_parse_int ("--lhs", lhs, 1, 10000000, &n_samples))
        st = HYD_CLI_EXIT_USAGE;
    }
  if (st == 0 && seed_text && !hyd_cli_parse_int ("--seed", seed_text, 0, G_MAXINT64, &seed))
    st = HYD_CLI_EXIT_USAGE;
  if (st == 0 && jobs_text && !hyd_cli_parse_int ("--jobs", jobs_text, 1, 1024, &jobs))
    st = HYD_CLI_EXIT_USAGE;
  double timeout = 0;
  if (st == 0 && timeout_text
      && !hyd_cli_parse_double ("--timeout", timeout_text, 0, 1e7, HYD_CLI_MIN_EXCLUSIVE, "s", &timeout))
    st = HYD_CLI_EXIT_USAGE;
  if (st == 0 && resume && output == NULL)
    st = hyd_cli_usage_error (ctx, "--resume continues the study in the -o file: give -o FILE.csv");
  if (st == 0 && output && !resume && rank == 0)
    {
      GStatBuf sb;
      if (g_stat (output, &sb) == 0 && S_ISREG (sb.st_mode) && sb.st_size > 0)
        st = hyd_cli_failed ("%s exists: --resume continues the study in it (its rows are kept), or remove it "
                             "to start again", hyd_cli_qpath (output));
    }
  g_autoptr (HydStudy) study = NULL;
  if (st == 0)
    st = hyd_cli_study_prepare (argc == 2 ? argv[1] : NULL, &args, ctx, vary, metrics, design,
                                (guint64) n_samples, (guint64) seed, (guint) jobs, &study);
  if (st == 0)
    hyd_study_set_timeout (study, timeout);
#ifdef BRAMAH_HAVE_MPI
  if (saved_stderr >= 0)
    {
      dup2 (saved_stderr, 2);
      close (saved_stderr);
    }
  if (mpi)
    {
      /* one answer for all: the worst status of any rank */
      int worst;
      MPI_Allreduce (&st, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      if (worst != 0)
        {
          MPI_Finalize ();
          return st ? st : worst;
        }
      if (rank > 0)
        {
          st = mpi_worker (study, isolate);
          MPI_Finalize ();
          return st;
        }
      if (jobs_text && jobs > 1 && size > 1)
        hyd_cli_warning ("--jobs %" G_GINT64_FORMAT " is for a study without mpirun: under mpirun each of the "
                         "%d ranks runs one run at a time (start one rank per core)", jobs, size);
      if (size > 1)
        jobs = 1;
    }
#endif
  (void) size;
  if (st)
    return st;

  guint64 n_runs = hyd_study_get_n_runs (study);
  g_autofree char *header = hyd_study_header (study);
  /* per run: its place in the list to run, and where its row is (-o) or
   * the row itself (stdout, about 25 bytes a column) */
  double book = (double) n_runs * (output ? 8 + 12 : 8 + 8 + 25.0 * (2 + hyd_study_get_n_vary (study)
                                                                      + hyd_study_get_n_metrics (study)));
  guint64 avail;
  if (hyd_cli_memory_available (&avail) && book > 0.5 * (double) avail)
    {
      g_autofree char *need_s = hyd_cli_format_size (book);
      g_autofree char *avail_s = hyd_cli_format_size ((double) avail);
      st = hyd_cli_failed ("the study's %" G_GUINT64_FORMAT " runs need %s to keep track of their rows, more than "
                           "half the %s of memory available: %ssplit it into smaller studies",
                           n_runs, need_s, avail_s, output ? "" : "write it with -o FILE.csv or ");
#ifdef BRAMAH_HAVE_MPI
      if (mpi)
        MPI_Abort (MPI_COMM_WORLD, st);
#endif
      return st;
    }
  Progress p = { .total = n_runs, .start = g_get_monotonic_time (), .last = g_get_monotonic_time (), .tty = isatty (2), .quiet = quiet,
                 .ranks = size };
  Rows rows = { .path = output, .fd = -1 };
  if (output)
    {
      GStatBuf sb;
      rows.fd = g_open (output, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
      if (rows.fd < 0)
        st = hyd_cli_failed ("cannot open %s: %s", hyd_cli_qpath (output), g_strerror (errno));
      else if (fstat (rows.fd, &sb) != 0 || !S_ISREG (sb.st_mode))
        st = hyd_cli_failed ("%s is not a regular file: sweep -o writes the rows there as they finish and reads "
                             "them back to sort them (without -o they go to standard output)",
                             hyd_cli_qpath (output));
      else
        {
          rows.offset = g_new (guint64, n_runs);
          rows.length = g_new0 (guint32, n_runs);
          for (guint64 k = 0; k < n_runs; k++)
            rows.offset[k] = G_MAXUINT64;
          if (resume)
            st = rows_resume (&rows, study, header, &p);
          if (st == 0 && rows.size == 0)
            {
              if (ftruncate (rows.fd, 0) != 0 || !write_all (rows.fd, header, strlen (header)))
                st = hyd_cli_failed ("cannot write %s: %s", hyd_cli_qpath (output), g_strerror (errno));
              rows.size = strlen (header);
            }
          if (st == 0 && lseek (rows.fd, (off_t) rows.size, SEEK_SET) < 0)
            st = hyd_cli_failed ("cannot write %s: %s", hyd_cli_qpath (output), g_strerror (errno));
        }
    }
  else
    {
      rows.rows = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_set_size (rows.rows, (guint) n_runs);
    }

  if (st == 0)
    {
      /* the runs still to do, in order */
      g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint64));
      for (guint64 k = 0; k < n_runs; k++)
        if (!rows_have (&rows, k))
          g_array_append_val (todo, k);
      /* under MPI the other ranks wait for rank 0's answers even when
       * nothing is left to run */
      if (todo->len > 0 || size > 1)
        {
          guint threads = (guint) MAX (1, MIN ((guint64) jobs, todo->len));
          HydStudyPool *pool = isolate ? hyd_study_pool_new_isolated (study, threads, (const guint64 *) todo->data,
                                                                      todo->len)
                                       : hyd_study_pool_new (study, threads, (const guint64 *) todo->data, todo->len);
#ifdef BRAMAH_HAVE_MPI
          if (size > 1)
            mpi_coordinate (study, pool, size, &rows, &p);
          else
#endif
            {
              guint64 run;
              char *row;
              gboolean ok, done = FALSE;
              while (!done)
                {
                  if (hyd_study_pool_pop (pool, p.tty ? 500000 : 10000000, &run, &row, &ok, &done))
                    rows_add (&rows, &p, run, row, ok);
                  progress_print (&p, FALSE);
                }
            }
          hyd_study_pool_free (pool);
        }
      progress_print (&p, TRUE);
      st = rows_finish (&rows, n_runs, header);
    }
  if (rows.fd >= 0)
    close (rows.fd);
  g_free (rows.offset);
  g_free (rows.length);
  if (rows.rows)
    g_ptr_array_unref (rows.rows);
#ifdef BRAMAH_HAVE_MPI
  if (mpi)
    {
      if (st != 0)
        MPI_Abort (MPI_COMM_WORLD, st);
      MPI_Finalize ();
    }
#endif
  return st;
}

const HydCliCommand hyd_cli_sweep_command = {
  HYD_CLI_SWEEP_NAME_SUMMARY, run,
};

/*
 * batch.c - `unpyc -o OUT PATH...`: see batch.h.
 *
 * The parent hands each worker one file index at a time over a pipe of
 * its own and reads back, over another, what became of the file (a
 * message shorter than PIPE_BUF, so written at once).  A worker that
 * dies (a crash on a hostile file) ends its pipe early: its file is an
 * error, its partial output is removed, and a new worker takes its place.
 */
#define _POSIX_C_SOURCE 200809L

#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch_files.h"
#include "batch_report.h"
#include "batch_worker.h"
#include "fd_io.h"
#include "unpyc.h"

/* What a worker says of a file. */
typedef struct result_message {
    uint32_t index;
    int32_t status, check, exit_code;
    uint32_t unrecovered;
    char message[CLI_MESSAGE_MAX];
} result_message;

typedef struct worker {
    pid_t pid;
    int tasks;    /* write end: indexes of files to do; -1 once closed */
    int results;  /* read end: result_message; -1 once the worker ended */
    long current; /* the file it works on, or -1 */
} worker;

typedef struct pool {
    cli_files *files;
    worker *workers;
    size_t nworkers, next, done, todo;
    int verify, progress; /* progress: standard error is a terminal */
    double last_shown;
} pool;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The worker's loop, in its own process: files until its pipe ends. */
static void work(cli_files *files, int tasks, int results, int verify) {
    uint32_t index;
    signal(SIGPIPE, SIG_DFL);
    while (cli_read_whole(tasks, &index, sizeof index) == 0 &&
           index < files->len) {
        cli_file *f = &files->items[index];
        result_message m;
        cli_decompile_file(f, verify);
        memset(&m, 0, sizeof m);
        m.index = index;
        m.status = (int32_t)f->status;
        m.check = (int32_t)f->check;
        m.exit_code = f->exit_code;
        m.unrecovered = f->unrecovered;
        memcpy(m.message, f->message, sizeof m.message);
        if (cli_write_whole(results, &m, sizeof m) != 0)
            break;
    }
    _exit(0);
}

static int pipe_cloexec(int fds[2]) {
    if (pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* Starts worker k; 0, or -1. */
static int spawn(pool *p, size_t k) {
    int tasks[2], results[2];
    size_t i;
    pid_t pid;
    if (pipe_cloexec(tasks) != 0)
        return -1;
    if (pipe_cloexec(results) != 0) {
        close(tasks[0]);
        close(tasks[1]);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        close(tasks[1]);
        close(results[0]);
        for (i = 0; i < p->nworkers; i++) {
            if (i != k && p->workers[i].tasks >= 0)
                close(p->workers[i].tasks);
            if (i != k && p->workers[i].results >= 0)
                close(p->workers[i].results);
        }
        work(p->files, tasks[0], results[1], p->verify);
    }
    close(tasks[0]);
    close(results[1]);
    if (pid < 0) {
        close(tasks[1]);
        close(results[0]);
        return -1;
    }
    p->workers[k].pid = pid;
    p->workers[k].tasks = tasks[1];
    p->workers[k].results = results[0];
    p->workers[k].current = -1;
    return 0;
}

/* Whether a file is left that no worker was given yet. */
static int undispatched(pool *p) {
    while (p->next < p->files->len &&
           p->files->items[p->next].status != CLI_FILE_PENDING)
        p->next++;
    return p->next < p->files->len;
}

/* Gives worker w the next file, or closes its pipe when none is left. */
static void dispatch(pool *p, worker *w) {
    if (undispatched(p)) {
        uint32_t index = (uint32_t)p->next++;
        if (cli_write_whole(w->tasks, &index, sizeof index) == 0) {
            w->current = (long)index;
            return;
        }
        p->next--; /* the worker is gone: its end of the pipe says so */
    }
    if (w->tasks >= 0)
        close(w->tasks);
    w->tasks = -1;
}

/* The progress line, at most ten times a second. */
static void show_progress(pool *p, const cli_file *f) {
    double t = now();
    size_t n;
    if (!p->progress || (t - p->last_shown < 0.1 && p->done < p->todo))
        return;
    p->last_shown = t;
    n = strlen(f->source);
    fprintf(stderr, "\r\033[K[%zu/%zu] %s%s", p->done, p->todo,
            n > 60 ? "..." : "", f->source + (n > 60 ? n - 57 : 0));
    fflush(stderr);
}

/* A file done: said on standard error unless fully recovered. */
static void finish(pool *p, cli_file *f) {
    p->done++;
    if (f->status != CLI_FILE_RECOVERED) {
        if (p->progress)
            fputs("\r\033[K", stderr);
        fprintf(stderr, "unpyc: %s: %s\n", f->source, f->message);
    }
    show_progress(p, f);
}

/* Worker w ended: done (its pipe closed), or dead on its file, which is
 * then an error; another worker takes w's place while files are left
 * that no worker was given. */
static void replace(pool *p, worker *w) {
    int status = 0;
    close(w->results);
    w->results = -1;
    if (w->tasks >= 0)
        close(w->tasks);
    w->tasks = -1;
    waitpid(w->pid, &status, 0);
    if (w->current >= 0) {
        cli_file *f = &p->files->items[w->current];
        f->status = CLI_FILE_ERROR;
        f->exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 70;
        snprintf(f->message, sizeof f->message,
                 "the decompiling process ended on this file (%s %d)",
                 WIFSIGNALED(status) ? "signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        if (f->output)
            unlink(f->output);
        w->current = -1;
        finish(p, f);
    }
    if (undispatched(p) && spawn(p, (size_t)(w - p->workers)) == 0)
        dispatch(p, w);
}

/* Reads what worker w says of its file. */
static void collect(pool *p, worker *w) {
    result_message m;
    cli_file *f;
    if (cli_read_whole(w->results, &m, sizeof m) != 0 ||
        m.index >= p->files->len || (long)m.index != w->current) {
        replace(p, w);
        return;
    }
    f = &p->files->items[m.index];
    f->status = (cli_file_status)m.status;
    f->check = (cli_verification)m.check;
    f->exit_code = m.exit_code;
    f->unrecovered = m.unrecovered;
    memcpy(f->message, m.message, sizeof f->message);
    f->message[sizeof f->message - 1] = '\0';
    w->current = -1;
    finish(p, f);
    dispatch(p, w);
}

/* Waits for the workers' results until every file is done; 0, or -1
 * when no worker could be kept running. */
static int run_pool(pool *p) {
    struct pollfd *fds = calloc(p->nworkers, sizeof *fds);
    size_t i, n;
    if (!fds)
        return -1;
    while (p->done < p->todo) {
        for (i = n = 0; i < p->nworkers; i++)
            if (p->workers[i].results >= 0) {
                fds[n].fd = p->workers[i].results;
                fds[n++].events = POLLIN;
            }
        if (n == 0)
            break;
        if (poll(fds, n, -1) < 0 && errno != EINTR)
            break;
        for (i = 0; i < p->nworkers; i++) {
            worker *w = &p->workers[i];
            size_t j;
            for (j = 0; j < n && w->results >= 0; j++)
                if (fds[j].fd == w->results && fds[j].revents) {
                    collect(p, w);
                    break;
                }
        }
    }
    free(fds);
    return p->done < p->todo ? -1 : 0;
}

static size_t worker_count(int jobs, size_t todo) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t n = jobs > 0 ? (size_t)jobs : cpus > 0 ? (size_t)cpus : 1;
    return n < todo ? n : todo;
}

/* Decompiles the pending files of p on its workers. */
static int decompile_all(pool *p, int jobs) {
    size_t i;
    int result;
    for (i = 0; i < p->files->len; i++) {
        const cli_file *f = &p->files->items[i];
        p->todo += f->status == CLI_FILE_PENDING;
        /* (Failed before decompiling: unreadable, or an output clash.) */
        if (f->status == CLI_FILE_ERROR)
            fprintf(stderr, "unpyc: %s: %s\n", f->source, f->message);
    }
    p->nworkers = worker_count(jobs, p->todo);
    p->workers = calloc(p->nworkers ? p->nworkers : 1, sizeof(worker));
    if (!p->workers)
        return -1;
    for (i = 0; i < p->nworkers; i++)
        p->workers[i].tasks = p->workers[i].results = -1;
    for (i = 0; i < p->nworkers; i++)
        if (spawn(p, i) == 0)
            dispatch(p, &p->workers[i]);
    result = run_pool(p);
    for (i = 0; i < p->nworkers; i++) {
        if (p->workers[i].tasks >= 0)
            close(p->workers[i].tasks);
        if (p->workers[i].results >= 0) {
            close(p->workers[i].results);
            waitpid(p->workers[i].pid, NULL, 0);
        }
    }
    free(p->workers);
    if (p->progress)
        fputs("\r\033[K", stderr);
    return result;
}

int cli_batch(const cli_batch_options *options, char *const *paths,
              int npaths) {
    cli_files files = {0};
    pool p;
    double started = now();
    char out_dir[4096];
    int error, code;
    /* OUT itself is a parent of OUT/. */
    snprintf(out_dir, sizeof out_dir, "%s/.", options->out_dir);
    error = cli_make_parents(out_dir);
    if (error) {
        fprintf(stderr, "unpyc: %s: %s\n", options->out_dir, strerror(error));
        return 2;
    }
    memset(&p, 0, sizeof p);
    p.files = &files;
    p.verify = options->verify;
    p.progress = isatty(STDERR_FILENO);
    /* A worker gone is seen at its pipe, not as a signal. */
    signal(SIGPIPE, SIG_IGN);
    if (cli_collect_files(options->out_dir, paths, npaths, &files) != 0 ||
        decompile_all(&p, options->jobs) != 0) {
        fprintf(stderr, "unpyc: out of memory or processes\n");
        cli_free_files(&files);
        return UNPYC_E_NOMEM;
    }
    cli_print_summary(stdout, &files, now() - started);
    code = cli_batch_exit_code(&files);
    if (options->report && cli_write_report(options->report, &files,
                                            options->verify) != 0) {
        fprintf(stderr, "unpyc: %s: %s\n", options->report, strerror(errno));
        code = 2;
    }
    cli_free_files(&files);
    return code;
}

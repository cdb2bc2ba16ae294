/*
 * verify.c - `unpyc --verify`: see verify.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "verify.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fd_io.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The oracle's exit status for "not equivalent" (roundtrip.VERIFY_DIFFERS). */
#define ORACLE_DIFFERS 10

/* The patch number of a pyenv build, from ".../versions/3.X.P/bin/...". */
static long patch_level(const char *path) {
    const char *release = strstr(path, "/versions/");
    const char *dot;
    if (!release)
        return -1;
    dot = strchr(release + strlen("/versions/3."), '.');
    return dot ? strtol(dot + 1, NULL, 10) : -1;
}

/* The newest file matching pattern that access() allows for mode, into
 * out; 0, or -1 if none. */
static int newest_match(const char *pattern, int mode, char *out, size_t cap) {
    glob_t found;
    size_t i, best = 0;
    int have = 0;

    if (glob(pattern, 0, NULL, &found) != 0)
        return -1;
    for (i = 0; i < found.gl_pathc; i++) {
        if (access(found.gl_pathv[i], mode) != 0)
            continue;
        if (!have || patch_level(found.gl_pathv[i]) >
                         patch_level(found.gl_pathv[best]))
            best = i;
        have = 1;
    }
    if (have)
        snprintf(out, cap, "%s", found.gl_pathv[best]);
    globfree(&found);
    return have ? 0 : -1;
}

/* name in a directory of $PATH into out; 0, or -1 if none. */
static int on_path(const char *name, char *out, size_t cap) {
    const char *dirs = getenv("PATH");
    while (dirs && *dirs) {
        size_t n = strcspn(dirs, ":");
        if (n > 0 && (size_t)snprintf(out, cap, "%.*s/%s", (int)n, dirs,
                                      name) < cap &&
            access(out, X_OK) == 0)
            return 0;
        dirs += n + (dirs[n] == ':');
    }
    return -1;
}

/* CPython major.minor: pyenv's newest build ($PYENV_ROOT, else ~/.pyenv),
 * else pythonX.Y on PATH (pyenv's shims there fail for a version that is
 * installed but not selected, so its builds come first). */
static int find_interpreter(int major, int minor, char *out, size_t cap) {
    char root[PATH_MAX], pattern[PATH_MAX + 64], name[32];
    const char *env = getenv("PYENV_ROOT"), *home = getenv("HOME");

    if (env && *env)
        snprintf(root, sizeof root, "%s", env);
    else
        snprintf(root, sizeof root, "%s/.pyenv", home ? home : "");
    snprintf(pattern, sizeof pattern, "%s/versions/%d.%d.*/bin/python%d.%d",
             root, major, minor, major, minor);
    if (newest_match(pattern, X_OK, out, cap) == 0)
        return 0;
    snprintf(name, sizeof name, "python%d.%d", major, minor);
    return on_path(name, out, cap);
}

/* The roundtrip.py pip installed with this program, into out; 0, or -1. */
static int find_oracle(char *out, size_t cap) {
    char exe[PATH_MAX], pattern[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;

    if (n <= 0)
        return -1;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    snprintf(pattern, sizeof pattern,
             "%s/../lib/python3*/site-packages/unpyc/roundtrip.py", exe);
    return newest_match(pattern, R_OK, out, cap);
}

/* Runs argv[0] with argv, source on its standard input, its standard
 * output and error ours; its exit status, or -1 if it did not exit. */
static int run_with_input(char *const argv[], const char *source,
                          size_t len) {
    int fds[2], status;
    pid_t pid;
    void (*previous)(int);

    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        dup2(fds[0], STDIN_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[0]);
    previous = signal(SIGPIPE, SIG_IGN);
    /* A verifier that exits early closes the pipe: its exit status, not
     * the write's error, says what happened. */
    if (pid > 0)
        (void)cli_write_whole(fds[1], source, len);
    close(fds[1]);
    signal(SIGPIPE, previous);
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Writes data to a new temporary file, its name into name; 0, or -1. */
static int temporary_copy(const unsigned char *data, size_t len, char *name,
                          size_t cap) {
    const char *dir = getenv("TMPDIR");
    int fd;

    snprintf(name, cap, "%s/unpyc-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
    fd = mkstemp(name);
    if (fd < 0)
        return -1;
    if (cli_write_whole(fd, data, len) != 0) {
        close(fd);
        unlink(name);
        return -1;
    }
    if (close(fd) != 0) {
        unlink(name);
        return -1;
    }
    return 0;
}

/* Runs the oracle with python on the .pyc file at file; its exit status. */
static int run_oracle(char *python, char *file, const char *source,
                      size_t len) {
    char oracle[PATH_MAX];
    char *isolated[] = {python, "-I", oracle, "--verify-pyc", file, "-", NULL};
    char *module[] = {python, "-m", "unpyc.roundtrip", "--verify-pyc",
                      file, "-", NULL};

    return run_with_input(find_oracle(oracle, sizeof oracle) == 0 ? isolated
                                                                  : module,
                          source, len);
}

cli_verdict cli_verify(const char *path, const unsigned char *data,
                       size_t data_len, int major, int minor,
                       const char *source, size_t len) {
    char python[PATH_MAX], file[PATH_MAX];
    int stdin_copy = strcmp(path, "-") == 0, status;

    if (find_interpreter(major, minor, python, sizeof python) != 0) {
        printf("# unpyc: not verified: no Python %d.%d on this machine "
               "(python%d.%d on PATH, or pyenv's versions)\n",
               major, minor, major, minor);
        return CLI_NOT_VERIFIED;
    }
    if (stdin_copy ? temporary_copy(data, data_len, file, sizeof file) != 0
                   : (size_t)snprintf(file, sizeof file, "%s", path) >=
                         sizeof file) {
        printf("# unpyc: not verified: %s\n",
               stdin_copy ? "no temporary file for the .pyc read from "
                            "standard input"
                          : "the file name is too long");
        return CLI_NOT_VERIFIED;
    }
    status = run_oracle(python, file, source, len);
    if (stdin_copy)
        unlink(file);
    if (status == 0)
        return CLI_EQUIVALENT;
    if (status == ORACLE_DIFFERS)
        return CLI_DIFFERS;
    printf("# unpyc: not verified: %s could not check it (exit status %d; "
           "see standard error)\n",
           python, status);
    return CLI_NOT_VERIFIED;
}

/*
 * batch_files.c - see batch_files.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "batch_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *joined(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, *a && *b ? "/" : "", b);
    return s;
}

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static cli_file *new_file(cli_files *files) {
    if (files->len == files->cap) {
        size_t cap = files->cap ? files->cap * 2 : 64;
        cli_file *grown = realloc(files->items, cap * sizeof *grown);
        if (!grown)
            return NULL;
        files->items = grown;
        files->cap = cap;
    }
    memset(&files->items[files->len], 0, sizeof(cli_file));
    return &files->items[files->len++];
}

/* A file that cannot be decompiled before it is tried. */
static void fail(cli_file *f, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(f->message, sizeof f->message, format, args);
    va_end(args);
    f->status = CLI_FILE_ERROR;
    f->exit_code = 2;
}

/* The output names of NAME.pyc in directory rel under out_dir: NAME.py,
 * or in a __pycache__ directory MODULE.py (MODULE: the name up to its
 * first dot, the cache tag after it) in the directory above; tagged keeps
 * the tag.  (A file named on the command line need not end in .pyc.)
 * Returns 0, or -1 when memory ran out. */
static int name_outputs(cli_file *f, const char *out_dir, const char *rel,
                        const char *name, int in_cache) {
    size_t stem = strlen(name) - (ends_with(name, ".pyc") ? 4 : 0),
           module = in_cache ? strcspn(name, ".") : stem;
    char *tagged = malloc(stem + 4), *plain = malloc(module + 4);
    char *in_out = joined(out_dir, rel);
    if (tagged && plain && in_out) {
        snprintf(tagged, stem + 4, "%.*s.py", (int)stem, name);
        snprintf(plain, module + 4, "%.*s.py", (int)module, name);
        f->output = joined(in_out, plain);
        f->tagged = joined(in_out, tagged);
    }
    free(tagged);
    free(plain);
    free(in_out);
    return f->output && f->tagged ? 0 : -1;
}

/* The directory rel (a path below the directory named) minus a last
 * __pycache__ component, into parent; whether there was one. */
static int cache_parent(const char *rel, char *parent, size_t cap) {
    const char *slash = strrchr(rel, '/');
    const char *last = slash ? slash + 1 : rel;
    int in_cache = strcmp(last, "__pycache__") == 0;
    size_t n = in_cache ? (size_t)(last - rel) : strlen(rel);
    if (n > 0 && in_cache)
        n--; /* the slash before __pycache__ */
    snprintf(parent, cap, "%.*s", (int)n, rel);
    return in_cache;
}

static int add_pyc(cli_files *files, const char *out_dir, const char *path,
                   const char *rel_dir, const char *name) {
    char parent[4096];
    cli_file *f = new_file(files);
    int in_cache = cache_parent(rel_dir, parent, sizeof parent);
    if (!f || !(f->source = strdup(path)))
        return -1;
    return name_outputs(f, out_dir, parent, name, in_cache);
}

static int walk(cli_files *files, const char *out_dir, const char *dir,
                const char *rel);

/* One entry of a directory walked: a .pyc file, or a directory to walk. */
static int visit(cli_files *files, const char *out_dir, const char *dir,
                 const char *rel, const char *name) {
    struct stat st;
    char *path = joined(dir, name), *below = NULL;
    int result = 0;
    if (!path)
        return -1;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        below = joined(rel, name);
        result = below ? walk(files, out_dir, path, below) : -1;
    } else if (ends_with(name, ".pyc") && stat(path, &st) == 0 &&
               S_ISREG(st.st_mode)) {
        result = add_pyc(files, out_dir, path, rel, name);
    }
    free(below);
    free(path);
    return result;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the .pyc files under dir, rel its path below the directory named,
 * in name order. */
static int walk(cli_files *files, const char *out_dir, const char *dir,
                const char *rel) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int result = 0;
    if (!d) {
        cli_file *f = new_file(files);
        if (!f || !(f->source = strdup(dir)))
            return -1;
        fail(f, "%s", strerror(errno));
        return 0;
    }
    while (result == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            char **grown = realloc(names, (cap = cap ? cap * 2 : 32) *
                                              sizeof *grown);
            if (!grown)
                result = -1;
            else
                names = grown;
        }
        if (result == 0 && !(names[n++] = strdup(e->d_name)))
            result = -1;
    }
    closedir(d);
    if (result == 0)
        qsort(names, n, sizeof *names, by_name);
    for (i = 0; i < n; i++) {
        if (result == 0 && names[i])
            result = visit(files, out_dir, dir, rel, names[i]);
        free(names[i]);
    }
    free(names);
    return result;
}

/* A directory named on the command line (dir/ and dir name the same
 * files: dir/a.pyc, not dir//a.pyc). */
static int walk_named(cli_files *files, const char *out_dir,
                      const char *path) {
    size_t n = strlen(path);
    char *dir = strdup(path);
    int result;
    if (!dir)
        return -1;
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    result = walk(files, out_dir, dir, "");
    free(dir);
    return result;
}

/* A path named on the command line: a directory to walk, or a file
 * whose output is its name (after its source's, from a __pycache__
 * directory) directly in OUT. */
static int add_path(cli_files *files, const char *out_dir, const char *path) {
    struct stat st;
    cli_file *f;
    const char *slash = strrchr(path, '/');
    char dir[4096], parent[4096];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return walk_named(files, out_dir, path);
    if (!(f = new_file(files)) || !(f->source = strdup(path)))
        return -1;
    if (stat(path, &st) != 0) {
        fail(f, "%s", strerror(errno));
        return 0;
    }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
    return name_outputs(f, out_dir, "", slash ? slash + 1 : path,
                        cache_parent(dir, parent, sizeof parent));
}

static int by_output(const void *a, const void *b) {
    const cli_file *x = a, *y = b;
    int c = strcmp(x->output ? x->output : "", y->output ? y->output : "");
    return c ? c : strcmp(x->source, y->source);
}

static int by_source(const void *a, const void *b) {
    return strcmp(((const cli_file *)a)->source,
                  ((const cli_file *)b)->source);
}

static int same_output(const cli_file *a, const cli_file *b) {
    return a->output && b->output && strcmp(a->output, b->output) == 0;
}

/* Whether f is an optimized cache file (NAME.TAG.opt-N.pyc, python -O). */
static int optimized(const cli_file *f) {
    return strstr(f->source, ".opt-") != NULL;
}

static void use_tagged(cli_file *f) {
    char *plain = f->output;
    f->output = f->tagged;
    f->tagged = plain;
}

/* Of files sharing an output, optimized ones keep their cache tags, and
 * the rest too unless one is left (the stdlib's mod.cpython-312.pyc
 * beside its .opt-1 and .opt-2 gives mod.py); a clash left after that is
 * the later file's error. */
static void part_outputs(cli_files *files) {
    size_t i, j, k, plain;
    qsort(files->items, files->len, sizeof(cli_file), by_output);
    for (i = 0; i < files->len; i = j) {
        for (j = i + 1, plain = !optimized(&files->items[i]);
             j < files->len && same_output(&files->items[i], &files->items[j]);
             j++)
            plain += !optimized(&files->items[j]);
        for (k = i; j - i > 1 && k < j; k++)
            if (optimized(&files->items[k]) || plain > 1)
                use_tagged(&files->items[k]);
    }
    qsort(files->items, files->len, sizeof(cli_file), by_output);
    for (i = 1; i < files->len; i++)
        if (same_output(&files->items[i - 1], &files->items[i])) {
            cli_file *f = &files->items[i];
            fail(f, "its output %s is also that of %s", f->output,
                 files->items[i - 1].source);
            free(f->output);
            f->output = NULL;
        }
    qsort(files->items, files->len, sizeof(cli_file), by_source);
}

int cli_collect_files(const char *out_dir, char *const *paths, int npaths,
                      cli_files *files) {
    int i;
    for (i = 0; i < npaths; i++)
        if (add_path(files, out_dir, paths[i]))
            return -1;
    part_outputs(files);
    return 0;
}

int cli_make_parents(const char *path) {
    char buf[4096];
    char *p;
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return ENAMETOOLONG;
    for (p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return errno;
        *p = '/';
    }
    return 0;
}

void cli_free_files(cli_files *files) {
    size_t i;
    for (i = 0; i < files->len; i++) {
        free(files->items[i].source);
        free(files->items[i].output);
        free(files->items[i].tagged);
    }
    free(files->items);
    files->items = NULL;
    files->len = files->cap = 0;
}

/*
 * batch_files.h - the files of a batch run and what became of each.
 *
 * A .pyc file named on the command line gives OUT/NAME.py; under a
 * directory named, DIR/a/b.pyc gives OUT/a/b.py and CPython's cache
 * layout DIR/a/__pycache__/b.cpython-311.pyc gives OUT/a/b.py, named
 * after its source.  Where two files would give the same output, the
 * optimized ones (b.cpython-311.opt-1.pyc) keep their cache tags
 * (OUT/a/b.cpython-311.opt-1.py), and the others too unless one is left
 * (caches of two interpreters, or b.pyc beside
 * __pycache__/b.cpython-311.pyc: OUT/a/b.cpython-311.py); the rest of a
 * clash (two files of one name from two directories named) is an error
 * of the later file, not an overwrite.  Symbolic links to directories are not
 * followed (a link cycle would never end).
 */
#ifndef UNPYC_CLI_BATCH_FILES_H
#define UNPYC_CLI_BATCH_FILES_H

#include <stddef.h>

/* What became of a file. */
typedef enum cli_file_status {
    CLI_FILE_PENDING,
    CLI_FILE_RECOVERED,      /* all of it; not found to differ */
    CLI_FILE_MARKED,         /* output with unrecovered parts, marked */
    CLI_FILE_NOT_EQUIVALENT, /* verified: some code object differs */
    CLI_FILE_NOT_VERIFIED,   /* with --verify: could not be checked */
    CLI_FILE_ERROR,          /* no output */
} cli_file_status;

/* How the output was checked. */
typedef enum cli_verification {
    CLI_CHECK_SKIPPED, /* --no-verify, or no output */
    CLI_CHECK_EQUIVALENT,
    CLI_CHECK_DIFFERS,
    CLI_CHECK_NOT_VERIFIED,
} cli_verification;

enum { CLI_MESSAGE_MAX = 512 };

typedef struct cli_file {
    char *source; /* the .pyc file's path */
    char *output; /* where its source goes; NULL when it has none */
    char *tagged; /* the output's name keeping the cache tag */
    cli_file_status status;
    cli_verification check;
    int exit_code;        /* what `unpyc FILE` would have exited with */
    unsigned unrecovered; /* parts marked in the output */
    char message[CLI_MESSAGE_MAX]; /* why, when not recovered */
} cli_file;

typedef struct cli_files {
    cli_file *items;
    size_t len, cap;
} cli_files;

/* Adds the .pyc files of paths, with their outputs under out_dir, in
 * the order of their paths.  A path that cannot be read is a file in
 * error.  Returns 0, or -1 when memory ran out. */
int cli_collect_files(const char *out_dir, char *const *paths, int npaths,
                      cli_files *files);

/* Makes the directories above path; 0, or an errno value. */
int cli_make_parents(const char *path);

void cli_free_files(cli_files *files);

#endif /* UNPYC_CLI_BATCH_FILES_H */

/*
 * batch.h - `unpyc -o OUT PATH...`: many .pyc files decompiled into a
 * directory tree, on all cores.
 *
 * The files are those named and the .pyc files under the directories
 * named (batch_files.h says where each one's source goes).  A fixed pool
 * of worker processes decompiles them, one file at a time each: the
 * engine has no global state, and a process of its own per worker keeps
 * what one file does (verification's subprocess writing into its output,
 * or a crash) from touching the others.  A file that cannot be read or
 * decompiled costs its own output only; the run goes on.
 */
#ifndef UNPYC_CLI_BATCH_H
#define UNPYC_CLI_BATCH_H

/* The batch's exit code when some files could not be decompiled at all
 * (after 9, 11 and 12, which it also uses: see cli_batch). */
#define CLI_EXIT_FILES_FAILED 13

typedef struct cli_batch_options {
    const char *out_dir; /* -o: where the sources go */
    const char *report;  /* --report: the JSON report's path, or NULL */
    int verify;          /* 0 --no-verify, 1 by default, 2 --verify */
    int jobs;            /* worker processes; 0: one per online CPU */
} cli_batch_options;

/* Decompiles the .pyc files of paths into options->out_dir, with a
 * progress line on standard error when it is a terminal and a summary on
 * standard output.  Returns the exit code: 0 when every file was fully
 * recovered (and, unless verification is off, not found to differ;
 * with --verify, also verified), else the largest that applies of 9 (some
 * output has unrecovered parts, marked in it), 11 (some output is not
 * equivalent), 12 (with --verify: some output was not verified) and 13
 * (some files could not be decompiled); 2 when OUT cannot be made. */
int cli_batch(const cli_batch_options *options, char *const *paths,
              int npaths);

#endif /* UNPYC_CLI_BATCH_H */

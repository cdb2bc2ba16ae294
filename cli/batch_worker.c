/*
 * batch_worker.c - one file of a batch run, in a worker process: read,
 * decompile, write the output (with verification's note on top, as the
 * single-file mode prints it), and say what became of it.
 */
#define _POSIX_C_SOURCE 200809L

#include "batch_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fd_io.h"
#include "read_input.h"
#include "unpyc.h"
#include "verify.h"

static void say(cli_file *f, cli_file_status status, int exit_code,
                const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(f->message, sizeof f->message, format, args);
    va_end(args);
    f->status = status;
    f->exit_code = exit_code;
}

/* Reads f's .pyc file; 0, or -1 with f in error. */
static int read_pyc(cli_file *f, unsigned char **data, size_t *len) {
    FILE *in = fopen(f->source, "rb");
    int error;
    if (!in) {
        say(f, CLI_FILE_ERROR, UNPYC_E_IO, "%s", strerror(errno));
        return -1;
    }
    error = cli_read_all(in, data, len);
    fclose(in);
    if (error)
        say(f, CLI_FILE_ERROR,
            error == EFBIG ? UNPYC_E_TOO_LARGE : UNPYC_E_IO, "%s",
            error == EFBIG ? "file is larger than 1 GiB" : strerror(error));
    return error ? -1 : 0;
}

/* Verification's note goes where standard output is, the oracle's
 * subprocess writing it too: standard output is the output file while
 * it runs. */
static cli_verdict verify_into(int fd, const cli_file *f,
                               const unsigned char *data, size_t len,
                               const char *source, size_t source_len) {
    int major = 0, minor = 0, saved;
    unpyc_error err;
    cli_verdict verdict;
    if (unpyc_pyc_version(data, len, &major, &minor, &err) != UNPYC_OK)
        return CLI_NOT_VERIFIED; /* (decompiling it already succeeded) */
    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0)
        return CLI_NOT_VERIFIED;
    verdict = cli_verify(f->source, data, len, major, minor, source,
                         source_len);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    return verdict;
}

/* What verification said, as f's status and exit code. */
static void judge(cli_file *f, cli_verdict verdict, int required) {
    f->check = verdict == CLI_EQUIVALENT ? CLI_CHECK_EQUIVALENT
               : verdict == CLI_DIFFERS  ? CLI_CHECK_DIFFERS
                                         : CLI_CHECK_NOT_VERIFIED;
    if (f->unrecovered)
        say(f, CLI_FILE_MARKED, UNPYC_E_UNSUPPORTED,
            "%u part%s could not be recovered (marked in the output)",
            f->unrecovered, f->unrecovered == 1 ? "" : "s");
    else if (verdict == CLI_DIFFERS)
        say(f, CLI_FILE_NOT_EQUIVALENT, CLI_EXIT_NOT_EQUIVALENT,
            "the source is not equivalent (named on top of it)");
    else if (verdict == CLI_NOT_VERIFIED && required)
        say(f, CLI_FILE_NOT_VERIFIED, CLI_EXIT_NOT_VERIFIED,
            "the source was not verified (said on top of it)");
    else
        say(f, CLI_FILE_RECOVERED, 0, "%s", "");
}

/* Writes source (with the note on top) to f's output and judges it. */
static void write_output(cli_file *f, int verify, const unsigned char *data,
                         size_t len, const char *source, size_t source_len) {
    int error = cli_make_parents(f->output), fd = -1;
    cli_verdict verdict = CLI_EQUIVALENT;
    if (!error)
        fd = open(f->output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        say(f, CLI_FILE_ERROR, UNPYC_E_IO, "cannot write %s: %s", f->output,
            strerror(error ? error : errno));
        return;
    }
    if (verify)
        verdict = verify_into(fd, f, data, len, source, source_len);
    if (cli_write_whole(fd, source, source_len) != 0 || close(fd) != 0) {
        say(f, CLI_FILE_ERROR, UNPYC_E_IO, "cannot write %s: %s", f->output,
            strerror(errno));
        unlink(f->output);
        return;
    }
    judge(f, verdict, verify == 2);
    if (!verify)
        f->check = CLI_CHECK_SKIPPED;
}

void cli_decompile_file(cli_file *f, int verify) {
    unsigned char *data = NULL;
    size_t len = 0, source_len = 0;
    char *source = NULL;
    unpyc_error err;
    unpyc_status st;
    if (read_pyc(f, &data, &len) != 0)
        return;
    st = unpyc_decompile_pyc(data, len, &source, &source_len, &f->unrecovered,
                             &err);
    if (st != UNPYC_OK)
        say(f, CLI_FILE_ERROR, (int)st, "%s", err.message);
    else
        write_output(f, verify, data, len, source, source_len);
    unpyc_free(source);
    free(data);
}

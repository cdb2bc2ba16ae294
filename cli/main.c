/*
 * main.c - the unpyc command.
 *
 *   unpyc [--verify | --no-verify] FILE.pyc
 *                                     decompile (FILE may be - for stdin)
 *   unpyc --dis [--json] FILE.pyc     disassemble
 *
 * Errors are one line on stderr, "unpyc: FILE: message", and the exit code
 * is the engine's status number (unpyc.h), so scripts can tell a file that
 * is not a .pyc (3) from a corrupt one (6) without parsing text.  Source
 * with parts the decompiler could not recover is still printed; the exit
 * code is then 9 (unsupported) and stderr says how many parts.  Unless
 * --no-verify is given, CPython of the file's version, where this machine
 * has it, checks the source (verify.h), and a note on top says whether the
 * module and each function in it compile back to equivalent bytecode, or
 * why it was not checked; exit code 11 when they do not, and with
 * --verify (verification required) 12 when it could not be checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unpyc.h"
#include "verify.h"

/* Larger inputs are refused before reading them whole. */
#define MAX_INPUT_BYTES ((size_t)1 << 30)

/* Exit codes of verification, after the engine's statuses (unpyc.h). */
#define EXIT_NOT_EQUIVALENT 11
#define EXIT_NOT_VERIFIED 12

static const char usage_text[] =
    "usage: unpyc [--verify | --no-verify | --dis [--json]] FILE.pyc\n"
    "\n"
    "Reads a .pyc file written by CPython 3.8 to 3.13 (FILE may be - for\n"
    "standard input) and prints its source.  CPython of the file's\n"
    "version, where this machine has it (pyenv's, or python3.X on PATH),\n"
    "checks the source: a note on top says whether the module and each\n"
    "function in it compile back to equivalent bytecode, naming those that\n"
    "do not, or why it was not checked.\n"
    "\n"
    "options:\n"
    "  --verify   fail (exit code 12) when the source cannot be checked\n"
    "  --no-verify  do not check it (no Python is run)\n"
    "  --dis      print the disassembly of every code object instead\n"
    "  --json     with --dis: print it as one JSON document\n"
    "  --help     show this text\n"
    "\n"
    "exit codes: 0 ok, 1 usage, 2 cannot read the file, 3 not a .pyc,\n"
    "4 unknown magic number, 5 truncated data, 6 corrupt data, 7 bad\n"
    "reference, 8 over the engine's limits, 9 unsupported (source with\n"
    "unrecovered parts is still printed), 10 out of memory, 11 the source\n"
    "is not equivalent, 12 with --verify: not verified (no python3.X, or\n"
    "it failed)\n";

static int fail_usage(const char *message) {
    fprintf(stderr, "unpyc: %s\n(see unpyc --help)\n", message);
    return UNPYC_E_USAGE;
}

/* Reads all of f into a malloc'd buffer; returns 0, or an errno value (or
 * EFBIG past MAX_INPUT_BYTES). */
static int read_all(FILE *f, unsigned char **data, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char *grown;
            if (cap >= MAX_INPUT_BYTES) {
                free(buf);
                return EFBIG;
            }
            cap *= 2;
            grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                return ENOMEM;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                free(buf);
                return EIO;
            }
            break;
        }
    }
    *data = buf;
    *len = n;
    return 0;
}

/* The exit code of verifying source decompiled from data (required: with
 * --verify); the note goes to standard output first. */
static int verify_source(const char *path, const unsigned char *data,
                         size_t len, const char *source, size_t source_len,
                         int required) {
    int major = 0, minor = 0;
    unpyc_error err;
    cli_verdict verdict;

    if (unpyc_pyc_version(data, len, &major, &minor, &err) != UNPYC_OK) {
        fprintf(stderr, "unpyc: %s: %s\n", path, err.message);
        return (int)err.status;
    }
    verdict = cli_verify(path, data, len, major, minor, source, source_len);
    if (verdict == CLI_EQUIVALENT || (verdict == CLI_NOT_VERIFIED && !required))
        return 0;
    fprintf(stderr, "unpyc: %s: %s\n", path,
            verdict == CLI_DIFFERS
                ? "the source is not equivalent (named on top of it)"
                : "the source was not verified (said on top of it)");
    return verdict == CLI_DIFFERS ? EXIT_NOT_EQUIVALENT : EXIT_NOT_VERIFIED;
}

int main(int argc, char **argv) {
    /* verify: 1 by default, 2 required (--verify), 0 off (--no-verify) */
    int dis = 0, json = 0, verify = 1, verified = 0, i, read_error;
    unsigned unrecovered = 0;
    const char *path = NULL;
    unsigned char *data = NULL;
    size_t len = 0, out_len = 0;
    char *out = NULL;
    unpyc_error err;
    unpyc_status st;
    FILE *f;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--dis") == 0) {
            dis = 1;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--verify") == 0) {
            verify = 2;
        } else if (strcmp(a, "--no-verify") == 0) {
            verify = 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "unpyc: unknown option %s\n", a);
            return UNPYC_E_USAGE;
        } else if (path) {
            return fail_usage("one FILE at a time");
        } else {
            path = a;
        }
    }
    if (!path)
        return fail_usage("no FILE given");
    if (json && !dis)
        return fail_usage("--json goes with --dis");
    if (verify == 2 && dis)
        return fail_usage("--verify goes with decompiling, not --dis");

    f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "unpyc: %s: %s\n", path, strerror(errno));
        return UNPYC_E_IO;
    }
    read_error = read_all(f, &data, &len);
    if (f != stdin)
        fclose(f);
    if (read_error) {
        fprintf(stderr, "unpyc: %s: %s\n", path,
                read_error == EFBIG ? "file is larger than 1 GiB"
                                    : strerror(read_error));
        return read_error == EFBIG ? UNPYC_E_TOO_LARGE : UNPYC_E_IO;
    }

    if (dis)
        st = unpyc_dis_pyc(data, len, json ? UNPYC_DIS_JSON : UNPYC_DIS_TEXT,
                           &out, &out_len, &err);
    else
        st = unpyc_decompile_pyc(data, len, &out, &out_len, &unrecovered, &err);
    if (st == UNPYC_OK && verify && !dis)
        verified = verify_source(path, data, len, out, out_len, verify == 2);
    free(data);
    if (st != UNPYC_OK) {
        fprintf(stderr, "unpyc: %s: %s\n", path, err.message);
        return (int)st;
    }
    if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
        unpyc_free(out);
        fprintf(stderr, "unpyc: cannot write the output: %s\n",
                strerror(errno));
        return UNPYC_E_IO;
    }
    unpyc_free(out);
    if (unrecovered) {
        fprintf(stderr,
                "unpyc: %s: %u part%s could not be recovered (marked in the "
                "output)\n",
                path, unrecovered, unrecovered == 1 ? "" : "s");
        return UNPYC_E_UNSUPPORTED;
    }
    return verified;
}

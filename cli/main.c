/*
 * main.c - the unpyc command.
 *
 *   unpyc [--verify | --no-verify] FILE.pyc
 *                                     decompile (FILE may be - for stdin)
 *   unpyc --dis [--json] FILE.pyc     disassemble
 *   unpyc -o OUT [--verify | --no-verify] [--report FILE] [--jobs N] PATH...
 *                                     decompile many files (batch.h)
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
 * --verify (verification required) 12 when it could not be checked.  The
 * batch mode verifies each file the same way, by default too: what it
 * writes is never less checked than what `unpyc FILE` prints.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "memory_stats.h"
#include "read_input.h"
#include "unpyc.h"
#include "verify.h"

static const char usage_text[] =
    "usage: unpyc [--verify | --no-verify | --dis [--json]] FILE.pyc\n"
    "       unpyc -o OUT [--verify | --no-verify] [--report FILE.json]\n"
    "             [--jobs N] PATH...\n"
    "\n"
    "Reads a .pyc file written by CPython 3.8 to 3.13 (FILE may be - for\n"
    "standard input) and prints its source.  CPython of the file's\n"
    "version, where this machine has it (pyenv's, or python3.X on PATH),\n"
    "checks the source: a note on top says whether the module and each\n"
    "function in it compile back to equivalent bytecode, naming those that\n"
    "do not, or why it was not checked.\n"
    "\n"
    "With -o, decompiles every .pyc file named and under each directory\n"
    "named into OUT, on all cores: DIR/a/__pycache__/b.cpython-311.pyc\n"
    "becomes OUT/a/b.py, DIR/a/b.pyc OUT/a/b.py, a FILE named NAME.pyc\n"
    "OUT/NAME.py (files of one output keep their cache tags, but for a\n"
    "single one that is not -O's .opt-N).  Each\n"
    "file is checked as above unless --no-verify.  A file that fails costs\n"
    "its own output only.  A summary ends the run.\n"
    "\n"
    "options:\n"
    "  --verify   fail (exit code 12) when the source cannot be checked\n"
    "  --no-verify  do not check it (no Python is run)\n"
    "  --dis      print the disassembly of every code object instead\n"
    "  --json     with --dis: print it as one JSON document\n"
    "  -o OUT     decompile many files into the directory OUT\n"
    "  --report FILE  with -o: write what became of each file as JSON\n"
    "  --jobs N   with -o: N worker processes (default: one per CPU)\n"
    "  --memory-stats  print what decompiling FILE took in memory to\n"
    "             standard error (for benchmarks)\n"
    "  --help     show this text\n"
    "\n"
    "exit codes: 0 ok, 1 usage, 2 cannot read the file, 3 not a .pyc,\n"
    "4 unknown magic number, 5 truncated data, 6 corrupt data, 7 bad\n"
    "reference, 8 over the engine's limits, 9 unsupported (source with\n"
    "unrecovered parts is still printed), 10 out of memory, 11 the source\n"
    "is not equivalent, 12 with --verify: not verified (no python3.X, or\n"
    "it failed).  With -o: 0 when every file was fully recovered, else the\n"
    "largest that applies of 9 (some output marked), 11 (some output not\n"
    "equivalent), 12 (with --verify: some not verified) and 13 (some files\n"
    "could not be decompiled)\n";

static int fail_usage(const char *message) {
    fprintf(stderr, "unpyc: %s\n(see unpyc --help)\n", message);
    return UNPYC_E_USAGE;
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
    return verdict == CLI_DIFFERS ? CLI_EXIT_NOT_EQUIVALENT : CLI_EXIT_NOT_VERIFIED;
}

typedef struct cli_args {
    int dis, json;
    int memory_stats;
    int verify; /* 1 by default, 2 required (--verify), 0 off (--no-verify) */
    cli_batch_options batch; /* batch.out_dir set: the batch mode */
    char **paths;
    int npaths;
} cli_args;

/* The value of option argv[*i], which must have one. */
static const char *option_value(int argc, char **argv, int *i) {
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* Sets the option without a value that a names; whether it is one. */
static int flag(const char *a, cli_args *args) {
    if (strcmp(a, "--dis") == 0)
        args->dis = 1;
    else if (strcmp(a, "--json") == 0)
        args->json = 1;
    else if (strcmp(a, "--verify") == 0)
        args->verify = 2;
    else if (strcmp(a, "--no-verify") == 0)
        args->verify = 0;
    else if (strcmp(a, "--memory-stats") == 0)
        args->memory_stats = 1;
    else
        return 0;
    return 1;
}

/* Parses argv into args; 0, or the exit code (help given: -1). */
static int parse_args(int argc, char **argv, cli_args *args) {
    int i;
    memset(args, 0, sizeof *args);
    args->verify = 1;
    /* The paths are gathered at the start of argv (never past i). */
    args->paths = argv + 1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *value;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return -1;
        } else if (flag(a, args)) {
            continue;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--report") == 0 ||
                   strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
            if (!(value = option_value(argc, argv, &i)))
                return fail_usage("-o, --report and --jobs take a value");
            if (strcmp(a, "-o") == 0)
                args->batch.out_dir = value;
            else if (strcmp(a, "--report") == 0)
                args->batch.report = value;
            else if ((args->batch.jobs = atoi(value)) <= 0)
                return fail_usage("--jobs takes a number of processes");
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "unpyc: unknown option %s\n", a);
            return UNPYC_E_USAGE;
        } else {
            args->paths[args->npaths++] = argv[i];
        }
    }
    return 0;
}

/* Checks the options go together; 0, or the exit code. */
static int check_args(const cli_args *args) {
    if (args->npaths == 0)
        return fail_usage("no FILE given");
    if (args->json && !args->dis)
        return fail_usage("--json goes with --dis");
    if (args->verify == 2 && args->dis)
        return fail_usage("--verify goes with decompiling, not --dis");
    if (args->batch.out_dir && args->dis)
        return fail_usage("-o decompiles; --dis is one FILE at a time");
    if (args->memory_stats && (args->batch.out_dir || args->dis))
        return fail_usage("--memory-stats decompiles one FILE");
    if (!args->batch.out_dir && (args->batch.report || args->batch.jobs))
        return fail_usage("--report and --jobs go with -o OUT");
    if (!args->batch.out_dir && args->npaths > 1)
        return fail_usage("one FILE at a time (or -o OUT for many)");
    return 0;
}

/* Reads path (- for standard input) whole; 0, or the exit code. */
static int read_input(const char *path, unsigned char **data, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    int read_error;
    if (!f) {
        fprintf(stderr, "unpyc: %s: %s\n", path, strerror(errno));
        return UNPYC_E_IO;
    }
    read_error = cli_read_all(f, data, len);
    if (f != stdin)
        fclose(f);
    if (read_error) {
        fprintf(stderr, "unpyc: %s: %s\n", path,
                read_error == EFBIG ? "file is larger than 1 GiB"
                                    : strerror(read_error));
        return read_error == EFBIG ? UNPYC_E_TOO_LARGE : UNPYC_E_IO;
    }
    return 0;
}

/* Writes the output to standard output; 0, or the exit code. */
static int print_output(char *out, size_t out_len) {
    int failed = fwrite(out, 1, out_len, stdout) != out_len ||
                 fflush(stdout) != 0;
    unpyc_free(out);
    if (!failed)
        return 0;
    fprintf(stderr, "unpyc: cannot write the output: %s\n", strerror(errno));
    return UNPYC_E_IO;
}

/* The single-file mode: the source (or disassembly) of one .pyc file on
 * standard output; the exit code. */
static int one_file(const cli_args *args, const char *path) {
    int verified = 0, code;
    unsigned unrecovered = 0;
    unsigned char *data = NULL;
    size_t len = 0, out_len = 0, engine_peak = 0;
    char *out = NULL;
    unpyc_error err;
    unpyc_status st;

    if ((code = read_input(path, &data, &len)) != 0)
        return code;
    if (args->dis)
        st = unpyc_dis_pyc(data, len,
                           args->json ? UNPYC_DIS_JSON : UNPYC_DIS_TEXT, &out,
                           &out_len, &err);
    else
        st = unpyc_decompile_pyc_measured(data, len, &out, &out_len,
                                          &unrecovered, &engine_peak, &err);
    if (args->memory_stats)
        cli_print_memory_stats(path, len, engine_peak, out_len);
    if (st == UNPYC_OK && args->verify && !args->dis)
        verified = verify_source(path, data, len, out, out_len,
                                 args->verify == 2);
    free(data);
    if (st != UNPYC_OK) {
        fprintf(stderr, "unpyc: %s: %s\n", path, err.message);
        return (int)st;
    }
    if ((code = print_output(out, out_len)) != 0)
        return code;
    if (unrecovered) {
        fprintf(stderr,
                "unpyc: %s: %u part%s could not be recovered (marked in the "
                "output)\n",
                path, unrecovered, unrecovered == 1 ? "" : "s");
        return UNPYC_E_UNSUPPORTED;
    }
    return verified;
}

int main(int argc, char **argv) {
    cli_args args;
    int code = parse_args(argc, argv, &args);
    if (code != 0)
        return code < 0 ? 0 : code;
    if ((code = check_args(&args)) != 0)
        return code;
    if (args.batch.out_dir) {
        args.batch.verify = args.verify;
        return cli_batch(&args.batch, args.paths, args.npaths);
    }
    return one_file(&args, args.paths[0]);
}

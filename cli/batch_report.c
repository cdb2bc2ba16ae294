/*
 * batch_report.c - see batch_report.h.
 */
#include "batch_report.h"

#include <errno.h>

#include "batch.h"
#include "unpyc.h"
#include "verify.h"

typedef struct tally {
    size_t files, recovered, verified, marked, differs, unverified, errors;
} tally;

static tally count(const cli_files *files) {
    tally t = {0, 0, 0, 0, 0, 0, 0};
    size_t i;
    for (i = 0; i < files->len; i++) {
        const cli_file *f = &files->items[i];
        t.files++;
        t.recovered += f->status == CLI_FILE_RECOVERED;
        t.verified += f->status == CLI_FILE_RECOVERED &&
                      f->check == CLI_CHECK_EQUIVALENT;
        t.marked += f->status == CLI_FILE_MARKED;
        t.differs += f->status == CLI_FILE_NOT_EQUIVALENT;
        t.unverified += f->status == CLI_FILE_NOT_VERIFIED;
        t.errors += f->status == CLI_FILE_ERROR ||
                    f->status == CLI_FILE_PENDING;
    }
    return t;
}

void cli_print_summary(FILE *out, const cli_files *files, double seconds) {
    tally t = count(files);
    fprintf(out,
            "unpyc: %zu file%s in %.2f s: %zu fully recovered (%zu verified "
            "equivalent), %zu marked, %zu not equivalent, ",
            t.files, t.files == 1 ? "" : "s", seconds, t.recovered,
            t.verified, t.marked, t.differs);
    if (t.unverified)
        fprintf(out, "%zu not verified, ", t.unverified);
    fprintf(out, "%zu error%s\n", t.errors, t.errors == 1 ? "" : "s");
}

/* s as a JSON string: quotes, backslashes and control characters escaped
 * (file names are bytes; others pass as they are). */
static void json_string(FILE *out, const char *s) {
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static const char *const status_names[] = {
    "error", "recovered", "marked", "not_equivalent", "not_verified", "error",
};
static const char *const check_names[] = {
    "skipped", "equivalent", "differs", "not_verified",
};
static const char *const verify_names[] = {"off", "default", "required"};

static void write_result(FILE *out, const cli_file *f) {
    fputs("    {\"source\": ", out);
    json_string(out, f->source);
    fputs(", \"output\": ", out);
    json_string(out, f->status == CLI_FILE_ERROR ? NULL : f->output);
    fprintf(out,
            ", \"status\": \"%s\", \"verification\": \"%s\", "
            "\"unrecovered\": %u, \"exit_code\": %d, \"message\": ",
            status_names[f->status], check_names[f->check], f->unrecovered,
            f->exit_code);
    json_string(out, f->status == CLI_FILE_RECOVERED ? NULL : f->message);
    fputc('}', out);
}

int cli_write_report(const char *path, const cli_files *files, int verify) {
    tally t = count(files);
    size_t i;
    FILE *out = fopen(path, "w");
    if (!out)
        return -1;
    fprintf(out,
            "{\"files\": %zu, \"recovered\": %zu, \"verified\": %zu, "
            "\"marked\": %zu, \"not_equivalent\": %zu, \"not_verified\": "
            "%zu, \"errors\": %zu, \"verify\": \"%s\",\n \"results\": [\n",
            t.files, t.recovered, t.verified, t.marked, t.differs,
            t.unverified, t.errors, verify_names[verify]);
    for (i = 0; i < files->len; i++) {
        write_result(out, &files->items[i]);
        fputs(i + 1 < files->len ? ",\n" : "\n", out);
    }
    fputs("]}\n", out);
    if (ferror(out)) {
        fclose(out);
        errno = EIO;
        return -1;
    }
    return fclose(out) == 0 ? 0 : -1;
}

int cli_batch_exit_code(const cli_files *files) {
    tally t = count(files);
    return t.errors       ? CLI_EXIT_FILES_FAILED
           : t.unverified ? CLI_EXIT_NOT_VERIFIED
           : t.differs    ? CLI_EXIT_NOT_EQUIVALENT
           : t.marked     ? UNPYC_E_UNSUPPORTED
                          : 0;
}

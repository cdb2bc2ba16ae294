/*
 * batch_report.h - the end of a batch run (batch.h): the summary, the
 * JSON report and the exit code.
 */
#ifndef UNPYC_CLI_BATCH_REPORT_H
#define UNPYC_CLI_BATCH_REPORT_H

#include <stdio.h>

#include "batch_files.h"

/* One line: how many files, fully recovered (and verified equivalent),
 * marked, not equivalent, not verified (with --verify) and in error. */
void cli_print_summary(FILE *out, const cli_files *files, double seconds);

/* Writes the report to path as JSON:
 *   {"files": N, "recovered": N, "verified": N, "marked": N,
 *    "not_equivalent": N, "not_verified": N, "errors": N,
 *    "verify": "off" | "default" | "required",
 *    "results": [{"source", "output" (null: none), "status" ("recovered",
 *                 "marked", "not_equivalent", "not_verified", "error"),
 *                 "verification" ("skipped", "equivalent", "differs",
 *                 "not_verified"), "unrecovered", "exit_code",
 *                 "message" (null when recovered)}, ...]}
 * in the order of the files' paths.  0, or -1 with errno set. */
int cli_write_report(const char *path, const cli_files *files, int verify);

/* See cli_batch. */
int cli_batch_exit_code(const cli_files *files);

#endif /* UNPYC_CLI_BATCH_REPORT_H */

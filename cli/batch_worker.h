/*
 * batch_worker.h - one file of a batch run (batch.h), decompiled in the
 * calling process.
 */
#ifndef UNPYC_CLI_BATCH_WORKER_H
#define UNPYC_CLI_BATCH_WORKER_H

#include "batch_files.h"

/* Decompiles f->source into f->output (verify as cli_batch_options
 * says), filling f's status, check, exit code, unrecovered count and
 * message.  A file in error leaves no output behind. */
void cli_decompile_file(cli_file *f, int verify);

#endif /* UNPYC_CLI_BATCH_WORKER_H */

/*
 * memory_stats.h - what decompiling one file took in memory, for
 * benchmarks (unpyc --memory-stats FILE; benchmarks/memory.py reads it).
 */
#ifndef UNPYC_CLI_MEMORY_STATS_H
#define UNPYC_CLI_MEMORY_STATS_H

#include <stddef.h>

/* Prints one line to stderr:
 *   unpyc: FILE: memory: input N B, engine peak N B, output N B,
 *   process peak RSS N KiB (at exit: N KiB anonymous, N KiB file)
 * input is the .pyc read in (held through the call), engine_peak what
 * unpyc_decompile_pyc_measured says, output the source's length; the
 * process figures are the kernel's (/proc/self/status: VmHWM, RssAnon,
 * RssFile), left out where it has none.  The file-backed part is the
 * command's code and libraries paged in: shared, and more of it the more
 * of the engine a module runs, not memory the module takes. */
void cli_print_memory_stats(const char *path, size_t input, size_t engine_peak,
                            size_t output);

#endif /* UNPYC_CLI_MEMORY_STATS_H */

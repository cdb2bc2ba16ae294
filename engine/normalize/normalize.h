/*
 * normalize.h - lowering a decoded code object into neutral instructions.
 */
#ifndef UPY_NORMALIZE_H
#define UPY_NORMALIZE_H

#include "decode/instr.h"
#include "normalize/nins.h"
#include "unpyc.h"
#include "util/arena.h"

/* Fills *out from dec.  Fails with UNPYC_E_UNSUPPORTED (naming the
 * instruction and its offset) on an instruction the layer does not lower
 * yet, and UNPYC_E_CORRUPT on sequences no CPython writes (a KW_NAMES with
 * no call, a jump into the middle of an idiom it must fuse). */
unpyc_status upy_normalize(const upy_decoded *dec, upy_version version,
                           upy_arena *arena, upy_ncode *out, unpyc_error *err);

/* upy_normalize in two steps, for a caller that gives the decoded
 * instructions back in between (at the copy, a code object's peak
 * memory: the decoded form, normalize's tables and the copy, 48, about
 * 105 and 48 bytes an instruction).  upy_normalize_in fills *out with
 * its instructions in work, which holds normalize's tables too (work no
 * longer reads dec when it returns); upy_normalize_keep copies them to
 * arena at their final size, so that work can be released. */
unpyc_status upy_normalize_in(const upy_decoded *dec, upy_version version,
                              upy_arena *work, upy_ncode *out,
                              unpyc_error *err);
unpyc_status upy_normalize_keep(upy_ncode *code, upy_arena *arena,
                                unpyc_error *err);

/* layout.c: moves runs of code the compiler placed out of line back after
 * the jump that leads to them (upy_normalize runs it last). */
unpyc_status upy_normalize_layout(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err);

/* finally.c: turns 3.8's finally subroutine (BEGIN_FINALLY,
 * CALL_FINALLY, END_FINALLY, WITH_CLEANUP_*) into the copies of the
 * finally body 3.9's compiler makes (upy_normalize runs it before
 * upy_normalize_blocks). */
unpyc_status upy_normalize_finally(upy_ncode *code, upy_arena *arena,
                                   unpyc_error *err);
/* blocks.c: turns the SETUP_* / POP_BLOCK block stack of 3.8-3.10 into
 * the handlers 3.11's exception table gives, with 3.11's handler code
 * (upy_normalize runs it first). */
unpyc_status upy_normalize_blocks(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err);
/* constreturn.c: loads the constant of 3.8-3.9's return from a try body
 * before the body's POP_BLOCKs, as compile.c compiler_return loads any
 * other value (upy_normalize runs it before upy_normalize_blocks; the
 * rules table says which versions). */
unpyc_status upy_normalize_const_returns(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err);
/* uncopy.c: turns copies of small exit blocks back into jumps to the
 * block where co_consts and co_names tell they were jumps (upy_normalize
 * runs it before upy_normalize_layout). */
unpyc_status upy_normalize_uncopy(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err);
/* clausebreaks.c: turns 3.13's copies of an except clause's end in the
 * breaks of a loop that ends the clause back into jumps to the loop's exit
 * (the rules table says which versions). */
unpyc_status upy_normalize_clause_breaks(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err);
/* coldblocks.c: puts an except clause that ends a loop's body, which
 * 3.12+ flowgraph.c push_cold_blocks_to_end laid out after all other code,
 * back after the try's else part (the rules table says which versions). */
unpyc_status upy_normalize_cold_blocks(upy_ncode *code, upy_arena *arena,
                                       unpyc_error *err);
/* withexits.c: gives the jump that ends a with's suppressed exception
 * the handler of the with's code where 3.13 copied a try body's end into
 * it (the rules table says which versions). */
unpyc_status upy_normalize_with_exits(upy_ncode *code);
/* unthread.c: undoes 3.9 peephole.c's threading of a try's jumps to its
 * end through the jump there (the rules table says which versions). */
unpyc_status upy_normalize_unthread(upy_ncode *code, upy_arena *arena,
                                    unpyc_error *err);
/* elseexit.c: the jump at the end of the else part from e of the try
 * that except clause's way out j (reached says which instructions a path
 * reaches) was threaded through to the loop's header by 3.8-3.9
 * peephole.c, or -1; budget bounds the work (unthread.c calls it). */
int32_t upy_else_end_threaded_through(const upy_ncode *code,
                                      const uint8_t *reached, uint32_t j,
                                      uint32_t e, uint64_t *budget);
/* exits.c: gives each jump to the return after a finally body's copy its
 * own copy, as 3.10+'s duplicate_exits_without_lineno does (the rules
 * table says which versions lack that pass). */
unpyc_status upy_normalize_exit_copies(upy_ncode *code, upy_arena *arena,
                                       unpyc_error *err);
/* asserts.c: 3.8's assert, which raises the global AssertionError, as
 * 3.9's LOAD_ASSERTION_ERROR (the rules table says which versions). */
unpyc_status upy_normalize_assert_global(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err);

/* breaks.c: undoes 3.8-3.9 peephole.c's threading of a for loop's break
 * through the jump after the loop's `else: break` (the rules table says
 * which versions). */
unpyc_status upy_normalize_unthread_breaks(upy_ncode *code);

/* ifends.c: undoes 3.8-3.9 peephole.c's threading of the jumps to the end
 * of a statement that ends a loop body through the jump there, where that
 * jump stays reached (the rules table says which versions). */
unpyc_status upy_normalize_unthread_ends(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err);

/* unreached.c: drops the name cleanup 3.8-3.9 leave unreached after an
 * except clause that cannot fall off its end, as 3.10's compile.c
 * remove_unreachable does (the rules table says which versions keep it;
 * upy_normalize runs it after upy_normalize_blocks). */
unpyc_status upy_normalize_unreached_cleanups(upy_ncode *code, upy_arena *arena,
                                              unpyc_error *err);

/* whiletest.c: copies the test of a 3.8-3.9 while loop to the bottom of
 * its body, as 3.10's compile.c compiler_while does (the rules table says
 * which versions test on top only). */
unpyc_status upy_normalize_while_tests(upy_ncode *code, upy_arena *arena,
                                       unpyc_error *err);

#endif /* UPY_NORMALIZE_H */

/*
 * unreached.c - dropping the name cleanup that 3.8-3.9 leave after an
 * except clause whose body cannot fall off its end.
 *
 * compile.c compiler_try_except ends the body of `except E as e:` with
 * POP_BLOCK; POP_EXCEPT; e = None; del e; JUMP_FORWARD end whatever the
 * body does, and peephole.c drops unreachable code after a RETURN_VALUE
 * only: after a body that ends in raise, break or continue (or an if /
 * else whose every way does) that code stays, reached by nothing.  3.10's
 * compile.c remove_unreachable (mark_reachable) drops it.  Worked example
 * (3.9, after blocks.c; stdlib shutil.copyfile):
 *
 *     except IsADirectoryError as e:
 *         if not exists(dst): raise ... from e   ... RAISE_VARARGS 2
 *                                                JUMP_FORWARD x   (dead)
 *         else: raise                            RERAISE 0
 *                                             x: POP_EXCEPT       (dead)
 *                                                LOAD_CONST None; STORE e
 *                                                DELETE e; JUMP_FORWARD w
 *                                                LOAD_CONST None; STORE e
 *                                                DELETE e; RERAISE 1
 *
 * Read back, the dead `e = None; del e` would be statements after the try
 * that unbind a name the code after it reads.  No source writes them
 * there: a clause's own statements come before its POP_EXCEPT, and the
 * same three after the POP_EXCEPT of a break or continue leaving the
 * clause are followed by more code of the clause, not by the handler that
 * clears the name.  So they go, as remove_unreachable drops them.  The
 * POP_EXCEPT and the jump stay, as after a clause with no name: where the
 * jump goes tells where the try's else part ends (3.10 compiles `try:` /
 * `except E: raise` / `else: x` + `y` and the try without the else alike,
 * 3.8-3.9 do not; recover/deadelse.c). The rules table says which
 * versions keep the code (norm_rules.keeps_unreached_code).
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Whether the unreached POP_EXCEPT at i starts the dead end of a clause
 * `except E as x:`: the clearing of x and a jump, then the handler that
 * clears x when the body raises. */
static int ends_named_clause(const upy_ncode *code, const uint8_t *reached,
                             uint32_t i) {
    const upy_nin *c = &code->ins[i];
    size_t n = code->count - i;
    uint32_t k;
    if (c->op != N_POP_EXCEPT || n < 9 || !upy_nin_clears_name(c + 1, n - 1) ||
        c[4].op != N_JUMP || !upy_nin_is_name_cleanup(c + 5, n - 5) ||
        c[6].arg != c[2].arg || c[6].obj != c[2].obj)
        return 0;
    for (k = i; k < i + 5; k++)
        if (reached[k])
            return 0;
    return 1;
}

/* The dead way out of a named clause at i, its POP_EXCEPT and jump once
 * the clearing of the name between them is dropped, takes the handler of
 * the clause's last code before it (the name cleanup's), as the dead way
 * out of a clause with no name has its clause's: it is the clause's end,
 * not code after the try.  blocks.c covers it by the clause's frame, the
 * handler of neither the clause's code nor the try's, and the try around
 * it (where there is one) then ended there.  Worked example, 3.9 (urllib3
 * contrib/emscripten/fetch.py _run_sync_with_timeout):
 *
 *     try:
 *         try: return run(p)
 *         except E as err:
 *             if c: raise A()
 *             else: raise B()      RAISE_VARARGS 1   (name cleanup's)
 *                                  POP_EXCEPT        (dead, the frame's)
 *                                  JUMP_FORWARD end  (dead, the frame's)
 *     finally: clear(p)
 *
 * The finally body's dead copy on the normal way out after it was not
 * found, and the rest of the function was marked. */
static void take_clause_handler(upy_ncode *code, uint32_t i) {
    const upy_nin *last;
    if (i == 0)
        return;
    last = &code->ins[i - 1];
    code->ins[i].handler = code->ins[i + 4].handler = last->handler;
    code->ins[i].handler_depth = code->ins[i + 4].handler_depth =
        last->handler_depth;
    code->ins[i].handler_lasti = code->ins[i + 4].handler_lasti =
        last->handler_lasti;
}

unpyc_status upy_normalize_unreached_cleanups(upy_ncode *code, upy_arena *arena,
                                              unpyc_error *err) {
    uint8_t *reached, *dropped;
    uint32_t *work, i;
    int any = 0;
    if (!code->count)
        return UNPYC_OK;
    reached = upy_arena_array(arena, code->count, 1);
    dropped = upy_arena_array(arena, code->count, 1);
    work = upy_arena_array_uncleared(arena, code->count, sizeof *work);
    if (!reached || !dropped || !work)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    upy_ncode_mark_reached(code, reached, work);
    for (i = 0; i < code->count; i++) {
        if (!ends_named_clause(code, reached, i))
            continue;
        dropped[i + 1] = dropped[i + 2] = dropped[i + 3] = 1;
        take_clause_handler(code, i);
        any = 1;
    }
    if (any && upy_ncode_drop(code, dropped, arena) != UNPYC_OK)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    return UNPYC_OK;
}

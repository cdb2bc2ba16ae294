/*
 * nins.c - facts about neutral instructions; see nins.h.
 */
#include "normalize/nins.h"

/* Items the callable of a call takes on the stack. */
static int call_slots(const upy_nin *in) {
    return in->flags & N_ONE_SLOT ? 1 : 2;
}

static int popcount4(int32_t bits) {
    return (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1) + (bits >> 3 & 1);
}

/* The effect in 64 bits: opargs come from the data, up to 2^32 - 1. */
static long long effect(const upy_nin *in, int taken) {
    long long arg = in->arg;

    switch ((upy_nop)in->op) {
    case N_POP_TOP:
    case N_STORE:
    case N_DELETE_ATTR:
    case N_SUBSCR:
    case N_BINARY:
    case N_COMPARE:
    case N_LIST_APPEND:
    case N_SET_ADD:
    case N_LIST_EXTEND:
    case N_SET_UPDATE:
    case N_DICT_UPDATE:
    case N_DICT_MERGE:
    case N_POP_JUMP_IF:
    case N_RETURN:
    case N_RERAISE:
    case N_POP_EXCEPT:
    case N_IMPORT_NAME:
    case N_IMPORT_STAR:
    case N_PRINT_EXPR:
        return -1;
    case N_COPY:
    case N_PUSH_NULL:
    case N_LOAD:
    case N_LOAD_CONST:
    case N_LOAD_METHOD:
    case N_LOAD_CLOSURE:
    case N_LOAD_BUILD_CLASS:
    case N_PUSH_EXC_INFO:
    case N_BEFORE_WITH:
    case N_WITH_EXCEPT_START:
    case N_LOAD_ASSERTION_ERROR:
    case N_IMPORT_FROM:
    case N_MATCH_MAPPING:
    case N_MATCH_SEQUENCE:
    case N_MATCH_KEYS:
    case N_GET_LEN:
    case N_LOAD_LOCALS:
        return 1;
    case N_EMPTY_BODY:
    case N_PASS:
    case N_LOOP_HEAD:
    case N_SWAP:
    case N_DELETE:
    case N_LOAD_ATTR:
    case N_UNARY:
    case N_EXC_MATCH:
    case N_EG_MATCH:
    case N_LIST_TO_TUPLE:
    case N_CONVERT:
    case N_JUMP:
    case N_YIELD:
    case N_GET_ITER:
    case N_GET_AITER:
    case N_AWAIT:
    case N_YIELD_FROM:
    case N_SETUP_ANNOTATIONS:
    case N_COPY_DICT_WITHOUT_KEYS:
    case N_SETUP_FINALLY:
    case N_SETUP_WITH:
    case N_POP_BLOCK:
    case N_ROT_FOUR:
    case N_POP_FINALLY:
    case N_WITH_CLEANUP_START:
    case N_WITH_CLEANUP_FINISH:
        return 0;
    case N_BEGIN_FINALLY:
        return 1;
    case N_CALL_FINALLY: /* (the address; the call comes back without it) */
        return taken;
    case N_END_FINALLY:
        return -1;
    case N_LOAD_SUPER_ATTR:
        return arg & 1 ? -1 : -2;
    case N_STORE_ATTR:
    case N_DELETE_SUBSCR:
    case N_SLICE:
    case N_MAP_ADD:
    case N_MATCH_CLASS:
    case N_END_ASYNC_FOR:
    case N_JUMP_IF_NOT_EXC_MATCH:
        return -2;
    case N_STORE_SUBSCR:
        return -3;
    case N_STORE_SLICE:
        return -4;
    case N_BUILD_SLICE:
    case N_BUILD_TUPLE:
    case N_BUILD_LIST:
    case N_BUILD_SET:
    case N_BUILD_STRING:
        return 1 - arg;
    case N_BUILD_MAP:
        return 1 - 2 * arg;
    case N_BUILD_CONST_KEY_MAP:
        return -arg;
    case N_UNPACK_SEQUENCE:
        return arg - 1;
    case N_UNPACK_EX:
        return (arg & 0xFF) + (arg >> 8);
    case N_FORMAT:
        return in->flags & N_FORMAT_SPEC ? -1 : 0;
    case N_CALL:
        return 1 - arg - call_slots(in);
    case N_CALL_EX:
        return 1 - call_slots(in) - 1 - (in->flags & N_CALL_KWARGS ? 1 : 0);
    case N_MAKE_FUNCTION:
        return -popcount4(in->arg);
    case N_INTRINSIC:
        return arg >= 100 ? -1 : 0;
    case N_JUMP_IF_OR_POP:
        return taken ? 0 : -1;
    case N_FOR_ITER:
        return taken ? -1 : 1;
    case N_RAISE:
        return -arg;
    case N_COUNT:
        break;
    }
    return 0;
}

/* Clamped to UPY_MAX_STACK_EFFECT either way, so that sums of a few
 * effects stay in an int; the CFG refuses depths past it. */
int upy_nin_stack_effect(const upy_nin *in, int taken) {
    long long e = effect(in, taken);
    if (e > UPY_MAX_STACK_EFFECT)
        return UPY_MAX_STACK_EFFECT;
    if (e < -UPY_MAX_STACK_EFFECT)
        return -UPY_MAX_STACK_EFFECT;
    return (int)e;
}

int upy_nin_ends_block(const upy_nin *in) {
    switch ((upy_nop)in->op) {
    case N_JUMP:
    case N_POP_JUMP_IF:
    case N_JUMP_IF_OR_POP:
    case N_FOR_ITER:
    case N_RETURN:
    case N_RAISE:
    case N_RERAISE:
        return 1;
    default:
        return 0;
    }
}

int upy_nin_falls_through(const upy_nin *in) {
    switch ((upy_nop)in->op) {
    case N_JUMP:
    case N_RETURN:
    case N_RAISE:
    case N_RERAISE:
        return 0;
    default:
        return 1;
    }
}

int upy_nin_uses_names(const upy_nin *in) {
    switch ((upy_nop)in->op) {
    case N_LOAD:
    case N_STORE:
    case N_DELETE:
        return in->arg == UPY_SCOPE_GLOBAL || in->arg == UPY_SCOPE_NAME;
    case N_LOAD_ATTR:
    case N_LOAD_METHOD:
    case N_LOAD_SUPER_ATTR:
    case N_STORE_ATTR:
    case N_DELETE_ATTR:
    case N_IMPORT_NAME:
    case N_IMPORT_FROM:
        return 1;
    default:
        return 0;
    }
}

int upy_nin_loads_none(const upy_nin *in) {
    return in->op == N_LOAD_CONST && in->obj && in->obj->kind == UPY_NONE;
}

int upy_nin_clears_name(const upy_nin *c, size_t n) {
    return n >= 3 && upy_nin_loads_none(&c[0]) && c[1].op == N_STORE &&
           c[2].op == N_DELETE && c[1].arg == c[2].arg && c[1].obj == c[2].obj;
}

int upy_nin_is_name_cleanup(const upy_nin *c, size_t n) {
    return upy_nin_clears_name(c, n) && n > 3 && c[3].op == N_RERAISE;
}

void upy_ncode_mark_reached(const upy_ncode *code, uint8_t *reached,
                            uint32_t *work) {
    uint32_t n = 0;
    reached[0] = 1;
    work[n++] = 0;
    while (n) {
        uint32_t i = work[--n], k;
        const upy_nin *in = &code->ins[i];
        int32_t next[3] = {upy_nin_falls_through(in) ? (int32_t)i + 1 : -1,
                           in->target, in->handler};
        for (k = 0; k < 3; k++)
            if (next[k] >= 0 && (uint32_t)next[k] < code->count &&
                !reached[next[k]]) {
                reached[next[k]] = 1;
                work[n++] = (uint32_t)next[k];
            }
    }
}

int32_t upy_ncode_jump_end(const upy_ncode *code, int32_t t) {
    uint32_t n = 0;
    while (t >= 0 && (uint32_t)t < code->count && code->ins[t].op == N_JUMP &&
           n++ < 8)
        t = code->ins[t].target;
    return t;
}

int upy_ncode_may_test_while(const upy_ncode *code, uint32_t k,
                             uint64_t *budget) {
    int32_t t = code->ins[k].target, h;
    uint32_t i;
    if (code->ins[k].op != N_POP_JUMP_IF || t <= (int32_t)k + 1 ||
        (uint32_t)t > code->count || code->ins[t - 1].op != N_JUMP)
        return 0;
    h = code->ins[t - 1].target;
    if (h < 0 || h > (int32_t)k)
        return 0;
    for (i = (uint32_t)h; i < k; i++) {
        if (!*budget)
            return 1;
        --*budget;
        if (upy_nin_ends_statement(&code->ins[i]))
            return 0;
    }
    return 1;
}

/* Whether the body of the while loop tested at k, whose test fails to t,
 * breaks before jump j: a jump past the test's statement to t, or past t
 * before j (a while loop's else part, which the break jumps over; the way
 * out of an if body that ends an outer loop's, unthread.c sends to j).
 * (The longest body it walks, in instructions: past it, no.) */
static int while_body_breaks(const upy_ncode *code, uint32_t k, int32_t t,
                             uint32_t j) {
    uint32_t i = upy_ncode_statement_end(code, k);
    for (; i + 1 < (uint32_t)t && i - k < 4096; i++) {
        int32_t x = code->ins[i].target;
        if (x >= t && x < (int32_t)j &&
            (code->ins[i].op == N_JUMP || code->ins[i].op == N_POP_JUMP_IF))
            return 1;
    }
    return 0;
}

int upy_ncode_past_inner_while(const upy_ncode *code, uint32_t j, uint32_t h) {
    uint32_t k;
    for (k = h; k < code->count && k - h < 64 &&
                !upy_nin_ends_statement(&code->ins[k]);
         k++) {
        int32_t t = code->ins[k].target;
        if (code->ins[k].op == N_POP_JUMP_IF && t > (int32_t)k + 1 &&
            (uint32_t)t <= code->count && code->ins[t - 1].op == N_JUMP &&
            code->ins[t - 1].target == (int32_t)h &&
            code->ins[t - 1].line == code->ins[t - 2].line)
            return (int32_t)j >= t &&
                   code->ins[j].handler == code->ins[h].handler &&
                   while_body_breaks(code, k, t, j);
    }
    return 0;
}

uint32_t upy_ncode_statement_start(const upy_ncode *code, uint32_t i) {
    while (i > 0 && !upy_nin_ends_statement(&code->ins[i - 1]))
        i--;
    return i;
}

uint32_t upy_ncode_statement_end(const upy_ncode *code, uint32_t from) {
    while (from < code->count && !upy_nin_ends_statement(&code->ins[from]))
        from++;
    return from;
}

int upy_nin_ends_statement(const upy_nin *in) {
    switch (in->op) {
    case N_POP_TOP:
    case N_STORE:
    case N_DELETE:
    case N_STORE_ATTR:
    case N_DELETE_ATTR:
    case N_STORE_SUBSCR:
    case N_DELETE_SUBSCR:
    case N_STORE_SLICE:
    case N_RETURN:
    case N_RAISE:
    case N_RERAISE:
    case N_FOR_ITER:
    case N_POP_EXCEPT:
    case N_PUSH_EXC_INFO:
        return 1;
    default:
        return 0;
    }
}

unpyc_status upy_ncode_drop(upy_ncode *code, const uint8_t *dropped,
                            upy_arena *arena) {
    uint32_t *new_index = upy_arena_array(arena, code->count, sizeof(uint32_t));
    uint32_t i, at = 0;
    if (!new_index)
        return UNPYC_E_NOMEM;
    for (i = 0; i < code->count; i++) {
        new_index[i] = at;
        if (!dropped[i])
            code->ins[at++] = code->ins[i];
    }
    for (i = 0; i < at; i++) {
        if (code->ins[i].target >= 0)
            code->ins[i].target = (int32_t)new_index[code->ins[i].target];
        if (code->ins[i].handler >= 0)
            code->ins[i].handler = (int32_t)new_index[code->ins[i].handler];
    }
    code->count = at;
    return UNPYC_OK;
}

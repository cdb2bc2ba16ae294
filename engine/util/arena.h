/*
 * arena.h - bump allocation for per-input data.
 *
 * Everything the engine builds for one input (objects, code objects, decoded
 * instructions) lives in one arena and is released at once.  The arena has a
 * byte limit so hostile input cannot make the engine take unbounded memory:
 * an allocation over the limit fails like an out-of-memory one, and the
 * caller reports UNPYC_E_TOO_LARGE.
 */
#ifndef UPY_ARENA_H
#define UPY_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct upy_arena_chunk upy_arena_chunk;

/* Sizes of chunk (512 B to 4 KiB, those of small requests) that released
 * scratch arenas give back to their budget arena for reuse. */
#define UPY_ARENA_SPARE_SIZES 4

typedef struct upy_arena {
    upy_arena_chunk *chunks; /* newest first */
    size_t allocated;        /* bytes of the chunks held, for the limit */
    size_t limit;            /* 0 means no limit */
    int over_limit;          /* set when an allocation failed on the limit */
    struct upy_arena *budget; /* the arena whose limit this one draws on, or
                                 NULL: its own */
    size_t next_chunk;        /* size of the next chunk for small requests */
    /* In an arena with no budget: chunks its scratch arenas released,
     * by size, taken again before malloc (scratch arenas come and go by
     * the thousand per module), freed with it. */
    upy_arena_chunk *spare[UPY_ARENA_SPARE_SIZES];
    void *seed; /* the block upy_arena_seed carved its first spares from */
    /* In an arena with no budget: the bytes it, its scratch arenas and its
     * spare lists hold from the system (chunk headers and the seed block
     * included), and the most of that at once: what a benchmark reports as
     * the engine's peak (upy_arena_peak). */
    size_t held;
    size_t peak;
} upy_arena;

void upy_arena_init(upy_arena *arena, size_t limit);

/* Fills the spare lists of an arena with no budget with chunks carved from
 * one block, so that the first chunks it and its scratch arenas start cost
 * no malloc each (a small function's decompilation started seven, a
 * sixth of its time with their frees); does nothing when that block
 * cannot be had. */
void upy_arena_seed(upy_arena *arena);

/* A scratch arena: released on its own, before its parent, while what it
 * holds counts against the parent's limit (and its parent's, ...) until
 * then.  Where memory lives, so that a module's peak is bounded by the
 * code objects open at once and not the sum over all of them:
 *   - the module arena: the marshal objects (str copied, bytes pointing
 *     into the input), the module body's tree, and the text of each def
 *     and class body printed so far (rec_def_body);
 *   - per code object being recovered, a scratch arena (recover_body): its
 *     decoded and neutral instructions, control-flow graph, indexes and
 *     value stacks, released once its statements are built;
 *   - per def or class body, a tree arena (rec_def_body): its statements,
 *     released once they are printed;
 *   - per phase, a working arena released when the phase returns: the
 *     line table (upy_decode_code), normalize's tables and layout moves
 *     (upy_normalize), the dominator computations (cfg.c). */
void upy_arena_init_scratch(upy_arena *scratch, upy_arena *parent);

/* Returns zeroed memory aligned for any object, or NULL when the system is
 * out of memory or the arena's limit would be passed (then over_limit is
 * set). */
void *upy_arena_alloc(upy_arena *arena, size_t size);

/* Like upy_arena_alloc for an array of count elements; fails on overflow. */
void *upy_arena_array(upy_arena *arena, size_t count, size_t elem_size);

/* Like upy_arena_array, but the memory is not cleared: for the big
 * per-instruction arrays whose users write each element before reading it,
 * where clearing cost more than anything else done with them. */
void *upy_arena_array_uncleared(upy_arena *arena, size_t count,
                                size_t elem_size);

/* How the engine's growing arrays grow: a copy of items (len elements of
 * elem_size) in an array of twice the capacity *cap (first_cap when it is
 * 0), the old copy left to the arena.  Updates *cap; NULL when out of
 * memory. */
void *upy_arena_grow(upy_arena *arena, const void *items, size_t len,
                     uint32_t *cap, size_t elem_size, uint32_t first_cap);

void upy_arena_release(upy_arena *arena);

/* The most bytes arena (one with no budget) and its scratch arenas held
 * from the system at once since it was initialized. */
size_t upy_arena_peak(const upy_arena *arena);

/* A point in an arena's allocations to go back to: what was allocated
 * after it is freed by upy_arena_rollback, and stops counting against the
 * limit.  One code object's recovery, gone over the limit, gives its
 * memory back this way so the code objects after it still get theirs. */
typedef struct upy_arena_mark {
    upy_arena_chunk *front;  /* the chunk in front, or NULL */
    upy_arena_chunk *behind; /* the chunk behind it then */
    size_t used;             /* of front */
    size_t allocated;
    size_t next_chunk;
} upy_arena_mark;

void upy_arena_mark_now(const upy_arena *arena, upy_arena_mark *mark);

/* Frees what arena allocated since mark (which must be arena's, taken
 * since its last rollback to an earlier mark or release) and clears
 * over_limit, its own and its budget's. */
void upy_arena_rollback(upy_arena *arena, const upy_arena_mark *mark);

#endif /* UPY_ARENA_H */

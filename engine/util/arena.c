/*
 * arena.c - bump allocation in chunks; see arena.h.
 */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Allocations are rounded up to this, enough for any scalar type. */
#define ARENA_ALIGN 16
/* The largest chunk for small requests; a request over a quarter of it
 * gets a chunk of its own, of its size.  Small: several arenas are open at
 * once (the module's, and for each code object being recovered its scratch
 * arena, its tree's and a phase's working arena), each with a partly used
 * chunk in front, and with 64 KiB chunks that unused room was half of a
 * module's peak heap.  Released chunks are reused (spare lists), so the
 * smaller chunks cost few more mallocs. */
#define ARENA_CHUNK_SIZE (4 * 1024)
/* Chunks for small requests start at this size and double up to
 * ARENA_CHUNK_SIZE: most code objects are small, and each one's scratch
 * arena would otherwise hold a whole chunk while its nested ones run. */
#define ARENA_FIRST_CHUNK_SIZE 512
/* Requests up to this size are cleared by a loop of aligned stores
 * (alloc_cleared); bigger ones by memset. */
#define ARENA_FAST_SIZE 256
/* Most of those are nodes of at most this many bytes (alloc_cleared). */
#define ARENA_CLEAR_SPAN 64

struct upy_arena_chunk {
    upy_arena_chunk *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    int seeded; /* carved from its owner's seed block: never freed alone */
    /* The header is padded to ARENA_ALIGN so the payload stays aligned. */
    _Alignas(ARENA_ALIGN) unsigned char payload[];
};

_Static_assert(ARENA_FIRST_CHUNK_SIZE << (UPY_ARENA_SPARE_SIZES - 1) ==
                   ARENA_CHUNK_SIZE,
               "one spare list per size of chunk for small requests");

void upy_arena_init(upy_arena *arena, size_t limit) {
    size_t k;
    for (k = 0; k < UPY_ARENA_SPARE_SIZES; k++)
        arena->spare[k] = NULL;
    arena->seed = NULL;
    arena->held = arena->peak = 0;
    arena->chunks = NULL;
    arena->allocated = 0;
    arena->limit = limit;
    arena->over_limit = 0;
    arena->budget = NULL;
    arena->next_chunk = ARENA_FIRST_CHUNK_SIZE;
}

void upy_arena_init_scratch(upy_arena *scratch, upy_arena *parent) {
    upy_arena_init(scratch, 0);
    scratch->budget = parent->budget ? parent->budget : parent;
}

/* The arena whose limit applies and which keeps the spare chunks. */
static upy_arena *owner_of(upy_arena *arena) {
    return arena->budget ? arena->budget : arena;
}

/* Counts bytes taken from the system (taken 1) or given back (0) in the
 * held total of arena's owner. */
static void note_held(upy_arena *arena, size_t bytes, int taken) {
    upy_arena *owner = owner_of(arena);
    if (!taken) {
        owner->held -= bytes;
        return;
    }
    owner->held += bytes;
    if (owner->held > owner->peak)
        owner->peak = owner->held;
}

/* Whether rounded more bytes would pass the limit of the arena whose
 * limit applies (which is then marked over its limit). */
static int exceeds_limit(upy_arena *arena, size_t rounded) {
    upy_arena *owner = owner_of(arena);
    if (owner->limit && (rounded > owner->limit ||
                         owner->allocated > owner->limit - rounded)) {
        arena->over_limit = owner->over_limit = 1;
        return 1;
    }
    return 0;
}

/* Counts rounded more bytes against the arena whose limit applies; 0 when
 * that passes the limit.  Whole chunks are counted when they are taken
 * (not each request), so that a request served from the chunk in front
 * checks nothing but the room left in it (alloc_cleared). */
static int charge(upy_arena *arena, size_t rounded) {
    upy_arena *owner = owner_of(arena);
    if (exceeds_limit(arena, rounded))
        return 0;
    owner->allocated += rounded;
    if (owner != arena)
        arena->allocated += rounded;
    return 1;
}

/* The spare list for chunks of size usable bytes, or NULL for a size
 * that is not kept. */
static upy_arena_chunk **spare_list(upy_arena *owner, size_t size) {
    size_t k, kind_size = ARENA_FIRST_CHUNK_SIZE;
    for (k = 0; k < UPY_ARENA_SPARE_SIZES; k++, kind_size *= 2)
        if (size == kind_size)
            return &owner->spare[k];
    return NULL;
}

/* A spare chunk of chunk_size usable bytes or a bigger one, else one of
 * at least least bytes (smaller), from the spare lists of arena's owner;
 * NULL when none.  The smaller ones are taken too: arenas ask for chunks
 * of growing sizes, and spares of the first sizes sat unused while bigger
 * chunks came from the system (a sixth of a small module's peak). */
static upy_arena_chunk *take_spare(upy_arena *arena, size_t chunk_size,
                                   size_t least) {
    upy_arena *owner = owner_of(arena);
    upy_arena_chunk **first = spare_list(owner, chunk_size), **spare = NULL;
    upy_arena_chunk *chunk;
    size_t at, k;
    if (!first)
        return NULL;
    at = (size_t)(first - owner->spare);
    for (k = at; !spare && k < UPY_ARENA_SPARE_SIZES; k++)
        if (owner->spare[k])
            spare = &owner->spare[k];
    for (k = at;
         !spare && k-- > 0 && ((size_t)ARENA_FIRST_CHUNK_SIZE << k) >= least;)
        if (owner->spare[k])
            spare = &owner->spare[k];
    if (!spare)
        return NULL;
    chunk = *spare;
    *spare = chunk->next;
    return chunk;
}

/* A chunk of at least least usable bytes (its size set; chunk_size
 * unless a spare one is taken), cleared when clear is set: a spare one
 * (take_spare), else a new one of chunk_size. */
static upy_arena_chunk *new_chunk(upy_arena *arena, size_t chunk_size,
                                  size_t least, int clear) {
    upy_arena_chunk *chunk = take_spare(arena, chunk_size, least);
    if (chunk) {
        if (clear)
            memset(chunk->payload, 0, least);
        return chunk;
    }
    chunk = clear ? calloc(1, sizeof(upy_arena_chunk) + chunk_size)
                  : malloc(sizeof(upy_arena_chunk) + chunk_size);
    if (chunk) {
        chunk->size = chunk_size;
        chunk->seeded = 0;
        note_held(arena, sizeof(upy_arena_chunk) + chunk_size, 1);
    }
    return chunk;
}

/* Gives chunk, one of arena's, back to the system, unless its owner's seed
 * block holds it (that goes when the owner is released). */
static void free_chunk(upy_arena *arena, upy_arena_chunk *chunk) {
    if (chunk->seeded)
        return;
    note_held(arena, sizeof(upy_arena_chunk) + chunk->size, 0);
    free(chunk);
}

/* Gives spare chunks of arena's owner back to the system, the biggest
 * first, until at least bytes are given or none is left (those of the
 * seed block stay).  Before a chunk of its own for a big request (a
 * function's per-instruction tables): chunks of at most 4 KiB cannot
 * serve it, and the ones the code objects recovered before released sat
 * unused at a module's peak (mailcap: 28 KiB of 114), where malloc can
 * make the new chunk of them. */
static void give_back_spares(upy_arena *arena, size_t bytes) {
    upy_arena *owner = owner_of(arena);
    size_t k = UPY_ARENA_SPARE_SIZES, given = 0;
    while (k-- > 0) {
        upy_arena_chunk **link = &owner->spare[k];
        while (*link && given < bytes) {
            upy_arena_chunk *chunk = *link;
            if (chunk->seeded) {
                link = &chunk->next;
                continue;
            }
            *link = chunk->next;
            given += sizeof *chunk + chunk->size;
            free_chunk(arena, chunk);
        }
    }
}

/* The spare chunks upy_arena_seed carves: what a function of median size
 * takes at once (its module arena's, scratch arena's, tree's and phase
 * arenas' chunks, and its per-instruction tables: four of 4 KiB, two more
 * for a bigger one).  All of the largest size: take_spare gives a bigger
 * chunk for a smaller request, and then an arena needs one chunk where it
 * took three of growing sizes; measured on 694 median functions of the
 * 3.11 stdlib, the chunks started per function went from 10.5 to 4.7 and
 * the mallocs from 2.5 to 1. */
static const size_t seed_sizes[] = {4096, 4096, 4096, 4096, 4096, 4096};

void upy_arena_seed(upy_arena *arena) {
    size_t k, total = 0, count = sizeof seed_sizes / sizeof seed_sizes[0];
    unsigned char *at;
    if (arena->budget || arena->seed)
        return;
    for (k = 0; k < count; k++)
        total += sizeof(upy_arena_chunk) + seed_sizes[k];
    arena->seed = at = malloc(total);
    if (at)
        note_held(arena, total, 1);
    for (k = 0; at && k < count; k++) {
        upy_arena_chunk *chunk = (upy_arena_chunk *)at;
        upy_arena_chunk **spare = spare_list(arena, seed_sizes[k]);
        chunk->size = seed_sizes[k];
        chunk->seeded = 1;
        chunk->next = *spare;
        *spare = chunk;
        at += sizeof(upy_arena_chunk) + seed_sizes[k];
    }
}

/* A fresh chunk of chunk_size usable bytes (or a spare one of at least
 * least: new_chunk), linked into the arena and counted against its limit;
 * a big request's own chunk goes behind the partly used chunk in front, so
 * later small requests keep filling that one (unless it is one of
 * ARENA_CHUNK_SIZE, whose room after the request serves them), and comes from
 * calloc when it must be cleared (fresh pages from the system need no
 * clearing). */
static upy_arena_chunk *add_chunk(upy_arena *arena, size_t chunk_size,
                                  size_t least, int big, int clear) {
    upy_arena_chunk *chunk = arena->chunks, *fresh;
    /* (Asked before the memory is: a crafted count of tens of gigabytes
     * would otherwise be taken from the system, or tried, first.) */
    if (chunk_size > SIZE_MAX - sizeof(upy_arena_chunk) ||
        exceeds_limit(arena, chunk_size))
        return NULL;
    if (big && chunk_size > ARENA_CHUNK_SIZE)
        give_back_spares(arena, chunk_size);
    fresh = new_chunk(arena, chunk_size, least, clear);
    if (!fresh)
        return NULL;
    if (!charge(arena, fresh->size)) {
        free_chunk(arena, fresh);
        return NULL;
    }
    fresh->used = 0;
    if (chunk && big && chunk_size != ARENA_CHUNK_SIZE) {
        fresh->next = chunk->next;
        chunk->next = fresh;
    } else {
        fresh->next = chunk;
        arena->chunks = fresh;
    }
    return fresh;
}

/* The size of a new chunk for a small request of rounded bytes. */
static size_t small_chunk_size(upy_arena *arena, size_t rounded) {
    size_t size = arena->next_chunk;
    while (size < rounded)
        size *= 2;
    arena->next_chunk = size < ARENA_CHUNK_SIZE ? 2 * size : ARENA_CHUNK_SIZE;
    return size;
}

/* size bytes of the arena, cleared when clear is set. */
static void *reserve(upy_arena *arena, size_t size, int clear) {
    size_t rounded;
    upy_arena_chunk *chunk;
    void *p;

    if (size == 0)
        size = 1;
    if (size > SIZE_MAX - ARENA_ALIGN)
        return NULL;
    rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    chunk = arena->chunks;
    if (rounded > ARENA_CHUNK_SIZE / 4) {
        /* Big requests get a chunk of their own so small ones keep
         * filling the current chunk; one that a spare chunk can hold
         * gets one of those (a function's per-instruction tables). */
        chunk = add_chunk(
            arena, rounded < ARENA_CHUNK_SIZE ? ARENA_CHUNK_SIZE : rounded,
            rounded, 1, clear);
        if (chunk)
            chunk->used = rounded;
        return chunk ? chunk->payload : NULL;
    }
    if (!chunk || chunk->size - chunk->used < rounded) {
        chunk =
            add_chunk(arena, small_chunk_size(arena, rounded), rounded, 0, 0);
        if (!chunk)
            return NULL;
    }
    p = chunk->payload + chunk->used;
    chunk->used += rounded;
    if (clear)
        memset(p, 0, size);
    return p;
}

/* reserve's usual case, a small cleared request that fits the chunk in
 * front, without its calls: most allocations are nodes of a few dozen
 * bytes, and reserve and memset were a seventh of the engine's time.
 * (size - 1 wraps for 0, which reserve rounds up to 1.) */
static void *alloc_cleared(upy_arena *arena, size_t size) {
    upy_arena_chunk *chunk = arena->chunks;
    size_t rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    unsigned char *p;
    size_t k;
    if (size - 1 >= ARENA_FAST_SIZE || !chunk ||
        chunk->size - chunk->used < rounded)
        return reserve(arena, size, 1);
    p = chunk->payload + chunk->used;
    /* A node of up to ARENA_CLEAR_SPAN bytes with that much room in front:
     * one clearing of a constant size (a few stores, no loop), past the
     * request into the chunk's unused room, which no one holds yet.  The
     * loop's exit, after a varying count, was mispredicted for most
     * requests (cachegrind --branch-sim). */
    if (rounded <= ARENA_CLEAR_SPAN &&
        chunk->size - chunk->used >= ARENA_CLEAR_SPAN) {
        chunk->used += rounded;
        memset(p, 0, ARENA_CLEAR_SPAN);
        return p;
    }
    chunk->used += rounded;
    for (k = 0; k < rounded; k += ARENA_ALIGN)
        memset(p + k, 0, ARENA_ALIGN); /* one aligned store each */
    return p;
}

void *upy_arena_alloc(upy_arena *arena, size_t size) {
    return alloc_cleared(arena, size);
}

void *upy_arena_array_uncleared(upy_arena *arena, size_t count,
                                size_t elem_size) {
    if (elem_size && count > SIZE_MAX / elem_size)
        return NULL;
    return reserve(arena, count * elem_size, 0);
}

void *upy_arena_array(upy_arena *arena, size_t count, size_t elem_size) {
    if (elem_size && count > SIZE_MAX / elem_size)
        return NULL;
    return alloc_cleared(arena, count * elem_size);
}

void *upy_arena_grow(upy_arena *arena, const void *items, size_t len,
                     uint32_t *cap, size_t elem_size, uint32_t first_cap) {
    uint32_t grown_cap = *cap ? 2 * *cap : first_cap;
    void *grown;
    if (*cap > UINT32_MAX / 2)
        return NULL;
    grown = upy_arena_array(arena, grown_cap, elem_size);
    if (!grown)
        return NULL;
    if (len)
        memcpy(grown, items, len * elem_size);
    *cap = grown_cap;
    return grown;
}

/* Frees the chunks of arena from first up to (not including) stop. */
static void free_chunks(upy_arena *arena, upy_arena_chunk *first,
                        const upy_arena_chunk *stop) {
    while (first != stop) {
        upy_arena_chunk *next = first->next;
        free_chunk(arena, first);
        first = next;
    }
}

void upy_arena_release(upy_arena *arena) {
    upy_arena_chunk *chunk = arena->chunks;
    size_t k;
    while (chunk) {
        upy_arena_chunk *next = chunk->next;
        upy_arena_chunk **spare =
            arena->budget ? spare_list(arena->budget, chunk->size) : NULL;
        if (spare) {
            chunk->next = *spare;
            *spare = chunk;
        } else {
            free_chunk(arena, chunk);
        }
        chunk = next;
    }
    for (k = 0; k < UPY_ARENA_SPARE_SIZES && !arena->budget; k++) {
        free_chunks(arena, arena->spare[k], NULL);
        arena->spare[k] = NULL;
    }
    if (!arena->budget) {
        free(arena->seed);
        arena->seed = NULL;
        arena->held = 0;
    }
    if (arena->budget)
        arena->budget->allocated -= arena->allocated;
    arena->chunks = NULL;
    arena->allocated = 0;
    arena->next_chunk = ARENA_FIRST_CHUNK_SIZE;
}

void upy_arena_mark_now(const upy_arena *arena, upy_arena_mark *mark) {
    mark->front = arena->chunks;
    mark->behind = arena->chunks ? arena->chunks->next : NULL;
    mark->used = arena->chunks ? arena->chunks->used : 0;
    mark->allocated = arena->allocated;
    mark->next_chunk = arena->next_chunk;
}

void upy_arena_rollback(upy_arena *arena, const upy_arena_mark *mark) {
    size_t freed = arena->allocated - mark->allocated;
    /* Small requests since the mark went to the front chunk then or to
     * chunks put in front of it; big ones to chunks put right behind the
     * front chunk of their time: in front of the mark's, or between it
     * and the chunk that was behind it. */
    free_chunks(arena, arena->chunks, mark->front);
    arena->chunks = mark->front;
    if (mark->front) {
        free_chunks(arena, mark->front->next, mark->behind);
        mark->front->next = mark->behind;
        mark->front->used = mark->used;
    }
    if (arena->budget) {
        arena->budget->allocated -= freed;
        arena->budget->over_limit = 0;
    }
    arena->allocated = mark->allocated;
    arena->next_chunk = mark->next_chunk;
    arena->over_limit = 0;
}

size_t upy_arena_peak(const upy_arena *arena) {
    return arena->peak;
}

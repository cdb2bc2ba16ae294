/*
 * cfg.c - basic blocks, dominators, post-dominators, loops, stack depths;
 * see cfg.h.
 *
 * Dominators use Lengauer and Tarjan's algorithm ("A Fast Algorithm for
 * Finding Dominators in a Flowgraph", the simple version with path
 * compression): near-linear in the size of the graph.  The iterative
 * algorithm of Cooper, Harvey and Kennedy used before is simpler, but its
 * intersections walk dominator chains, as long as the function in code
 * of many with statements or long boolean chains (quadratic time).
 * Post-dominators are the same algorithm on the reversed graph.
 */
#include "recover/cfg.h"

#include <string.h>

#include "util/error.h"
#include "util/status.h"

typedef struct graph_walk {
    upy_arena *arena;
    uint32_t n;       /* nodes, the virtual exit included if any */
    uint32_t *number; /* node -> reverse post-order number, UINT32_MAX */
    int32_t *idom;
} graph_walk;

/* Successors of a node for a dominator computation: forward (normal +
 * exception edges) or reversed normal edges with the virtual exit. */
typedef struct succ_list {
    int32_t items[3];
    uint32_t len;
} succ_list;

typedef struct edge_source {
    const upy_cfg *cfg;
    int reversed;
    /* Reversed: predecessor lists built here, exits pointing at node
     * cfg->count. */
    int32_t **rev;
    uint32_t *nrev;
} edge_source;

static int32_t node_succ_count(const edge_source *es, int32_t node,
                               const int32_t **items, succ_list *scratch) {
    const upy_block *b;
    if (es->reversed) {
        *items = es->rev[node];
        return (int32_t)es->nrev[node];
    }
    b = &es->cfg->blocks[node];
    scratch->len = 0;
    if (b->next != UPY_NO_BLOCK)
        scratch->items[scratch->len++] = b->next;
    if (b->jump != UPY_NO_BLOCK)
        scratch->items[scratch->len++] = b->jump;
    if (b->handler != UPY_NO_BLOCK)
        scratch->items[scratch->len++] = b->handler;
    *items = scratch->items;
    return (int32_t)scratch->len;
}

/* Iterative depth-first search from `root`, numbering the nodes in
 * reverse post-order. */
static int depth_first(const edge_source *es, graph_walk *w, int32_t root) {
    int32_t *stack = upy_arena_array(w->arena, w->n, sizeof(int32_t));
    uint32_t *next_edge = upy_arena_array(w->arena, w->n, sizeof(uint32_t));
    uint8_t *seen = upy_arena_array(w->arena, w->n, 1);
    int32_t *post = upy_arena_array(w->arena, w->n, sizeof(int32_t));
    uint32_t sp = 0, npost = 0, i;
    succ_list scratch;

    if (!stack || !next_edge || !seen || !post)
        return ERROR;
    stack[sp++] = root;
    seen[root] = 1;
    while (sp) {
        int32_t node = stack[sp - 1];
        const int32_t *succ;
        int32_t nsucc = node_succ_count(es, node, &succ, &scratch);
        if ((int32_t)next_edge[node] < nsucc) {
            int32_t s = succ[next_edge[node]++];
            if (!seen[s]) {
                seen[s] = 1;
                stack[sp++] = s;
            }
        } else {
            post[npost++] = node;
            sp--;
        }
    }
    w->number = upy_arena_array(w->arena, w->n, sizeof(uint32_t));
    if (!w->number)
        return ERROR;
    for (i = 0; i < w->n; i++)
        w->number[i] = UINT32_MAX;
    for (i = 0; i < npost; i++)
        w->number[post[npost - 1 - i]] = i;
    return SUCCESS;
}

/* Predecessors of every node in the graph es walks (the reverse of its
 * successor relation), for the dominator update: those of node i are
 * items[start[i]] up to items[start[i + 1]], in one array (an array per
 * node was most of the engine's allocations). */
typedef struct pred_lists {
    uint32_t *start;
    int32_t *items;
} pred_lists;

static int predecessors(const edge_source *es, graph_walk *w,
                        pred_lists *preds) {
    uint32_t i, total = 0, *fill;
    succ_list scratch;
    preds->start = upy_arena_array(w->arena, w->n + 1, sizeof(uint32_t));
    fill = upy_arena_array(w->arena, w->n + 1, sizeof(uint32_t));
    if (!preds->start || !fill)
        return ERROR;
    for (i = 0; i < w->n; i++) {
        const int32_t *succ;
        int32_t k, ns = node_succ_count(es, (int32_t)i, &succ, &scratch);
        for (k = 0; k < ns; k++)
            fill[succ[k]]++;
    }
    for (i = 0; i < w->n; i++) {
        preds->start[i] = total;
        total += fill[i];
        fill[i] = preds->start[i];
    }
    preds->start[w->n] = total;
    preds->items =
        upy_arena_array_uncleared(w->arena, total ? total : 1, sizeof(int32_t));
    if (!preds->items)
        return ERROR;
    for (i = 0; i < w->n; i++) {
        const int32_t *succ;
        int32_t k, ns = node_succ_count(es, (int32_t)i, &succ, &scratch);
        for (k = 0; k < ns; k++)
            preds->items[fill[succ[k]]++] = (int32_t)i;
    }
    return SUCCESS;
}

/* The Lengauer-Tarjan state, indexed by depth-first (preorder) number,
 * 1 up to count; 0 is no node. */
typedef struct lt_state {
    int32_t *vertex; /* number -> node */
    uint32_t *num;   /* node -> number, 0: unreached */
    uint32_t *parent, *semi, *label, *ancestor, *idom;
    uint32_t *bucket, *bucket_next, *path; /* buckets as linked lists */
    uint32_t count;
} lt_state;

/* Numbers the nodes reached from root in depth-first preorder, with
 * their spanning-tree parents. */
static void lt_number(const edge_source *es, lt_state *lt, int32_t root,
                      int32_t *stack, uint32_t *next_edge) {
    uint32_t sp = 0;
    succ_list scratch;
    lt->num[root] = ++lt->count;
    lt->vertex[lt->count] = root;
    stack[sp++] = root;
    while (sp) {
        int32_t node = stack[sp - 1], s;
        const int32_t *succ;
        int32_t nsucc = node_succ_count(es, node, &succ, &scratch);
        if ((int32_t)next_edge[node] >= nsucc) {
            sp--;
            continue;
        }
        s = succ[next_edge[node]++];
        if (lt->num[s])
            continue;
        lt->num[s] = ++lt->count;
        lt->vertex[lt->count] = s;
        lt->parent[lt->count] = lt->num[node];
        stack[sp++] = s;
    }
}

/* The node of least semi-dominator on the forest path to v, compressing
 * the path (iteratively: a chain may be as long as the function). */
static uint32_t lt_eval(lt_state *lt, uint32_t v) {
    uint32_t n = 0, x = v;
    if (!lt->ancestor[v])
        return v;
    while (lt->ancestor[lt->ancestor[x]]) {
        lt->path[n++] = x;
        x = lt->ancestor[x];
    }
    while (n) {
        uint32_t y = lt->path[--n], a = lt->ancestor[y];
        if (lt->semi[lt->label[a]] < lt->semi[lt->label[y]])
            lt->label[y] = lt->label[a];
        lt->ancestor[y] = lt->ancestor[a];
    }
    return lt->label[v];
}

/* Semi-dominators, and the immediate dominators they imply, from the
 * last number to the first. */
static void lt_semidominators(lt_state *lt, const pred_lists *preds) {
    uint32_t i, k;
    for (i = lt->count; i >= 2; i--) {
        uint32_t w = i, p = lt->parent[w], v;
        int32_t node = lt->vertex[w];
        for (k = preds->start[node]; k < preds->start[node + 1]; k++) {
            uint32_t u = lt->num[preds->items[k]];
            if (u && lt->semi[lt_eval(lt, u)] < lt->semi[w])
                lt->semi[w] = lt->semi[lt_eval(lt, u)];
        }
        lt->bucket_next[w] = lt->bucket[lt->semi[w]];
        lt->bucket[lt->semi[w]] = w;
        lt->ancestor[w] = p;
        for (v = lt->bucket[p]; v; v = lt->bucket_next[v]) {
            uint32_t u = lt_eval(lt, v);
            lt->idom[v] = lt->semi[u] < lt->semi[v] ? u : p;
        }
        lt->bucket[p] = 0;
    }
}

static int lt_alloc(upy_arena *arena, lt_state *lt, uint32_t n) {
    uint32_t **arrays[] = {&lt->num,    &lt->parent,      &lt->semi,
                           &lt->label,  &lt->ancestor,    &lt->idom,
                           &lt->bucket, &lt->bucket_next, &lt->path};
    size_t k, count = sizeof arrays / sizeof arrays[0];
    uint32_t *block;
    memset(lt, 0, sizeof *lt);
    /* One cleared block for vertex and the others, n + 1 entries each: an
     * allocation each was a fifth of the time dominators took on small
     * functions. */
    block =
        upy_arena_array(arena, (count + 1) * ((size_t)n + 1), sizeof(uint32_t));
    if (!block)
        return ERROR;
    lt->vertex = (int32_t *)block;
    for (k = 0; k < count; k++)
        *arrays[k] = block + (k + 1) * ((size_t)n + 1);
    return SUCCESS;
}

/* Immediate dominators by Lengauer and Tarjan's algorithm (path
 * compression): near-linear, where the iterative one walked idom chains
 * as long as the function at each join (a function of many with
 * statements, whose cleanups all sit at its end, took quadratic time). */
static int dominators(const edge_source *es, graph_walk *w, int32_t root) {
    pred_lists preds;
    uint32_t i;
    lt_state lt;
    int32_t *stack = upy_arena_array(w->arena, w->n, sizeof(int32_t));
    uint32_t *next_edge = upy_arena_array(w->arena, w->n, sizeof(uint32_t));

    if (!stack || !next_edge || predecessors(es, w, &preds) ||
        lt_alloc(w->arena, &lt, w->n))
        return ERROR;
    lt_number(es, &lt, root, stack, next_edge);
    for (i = 1; i <= lt.count; i++)
        lt.semi[i] = lt.label[i] = i;
    lt_semidominators(&lt, &preds);
    w->idom = upy_arena_array(w->arena, w->n, sizeof(int32_t));
    if (!w->idom)
        return ERROR;
    for (i = 0; i < w->n; i++)
        w->idom[i] = UPY_NO_BLOCK;
    w->idom[root] = root;
    for (i = 2; i <= lt.count; i++) {
        if (lt.idom[i] != lt.semi[i])
            lt.idom[i] = lt.idom[lt.idom[i]];
        w->idom[lt.vertex[i]] = lt.vertex[lt.idom[i]];
    }
    return SUCCESS;
}

/* Whether instruction i is a conditional jump the exception table leaves
 * out of the range around it (3.13 does so for the jumps of a chained
 * comparison in an inlined comprehension): it raises nothing, so it stays
 * in the block of the test it ends. */
static int is_unprotected_test(const upy_ncode *code, uint32_t i) {
    return code->ins[i].op == N_POP_JUMP_IF && code->ins[i].handler < 0 &&
           upy_nin_falls_through(&code->ins[i - 1]);
}

/* Splits the instructions into blocks: a block starts at the entry, at
 * every jump target and handler entry, after every instruction that ends a
 * block, and wherever the handler changes. */
static int make_blocks(upy_cfg *cfg, upy_arena *arena) {
    const upy_ncode *code = cfg->code;
    uint8_t *starts = upy_arena_array(arena, code->count + 1, 1);
    uint32_t i, n = 0;

    cfg->block_of = upy_arena_array(arena, code->count + 1, sizeof(int32_t));
    if (!starts || !cfg->block_of)
        return ERROR;
    if (code->count)
        starts[0] = 1;
    for (i = 0; i < code->count; i++) {
        const upy_nin *in = &code->ins[i];
        if (in->target >= 0)
            starts[in->target] = 1;
        if (in->handler >= 0)
            starts[in->handler] = 1;
        if (upy_nin_ends_block(in))
            starts[i + 1] = 1;
        if (i > 0 && code->ins[i - 1].handler != in->handler &&
            !is_unprotected_test(code, i))
            starts[i] = 1;
    }
    for (i = 0; i < code->count; i++)
        n += starts[i];
    cfg->count = n;
    cfg->blocks = upy_arena_array(arena, n ? n : 1, sizeof(upy_block));
    if (!cfg->blocks)
        return ERROR;
    n = 0;
    for (i = 0; i < code->count; i++) {
        if (starts[i]) {
            if (n)
                cfg->blocks[n - 1].end = i;
            cfg->blocks[n].start = i;
            n++;
        }
        cfg->block_of[i] = (int32_t)n - 1;
    }
    if (n)
        cfg->blocks[n - 1].end = code->count;
    for (i = 0; i < n; i++) {
        upy_block *b = &cfg->blocks[i];
        const upy_nin *last = &code->ins[b->end - 1];
        b->next = upy_nin_falls_through(last) && b->end < code->count
                      ? cfg->block_of[b->end]
                      : UPY_NO_BLOCK;
        b->jump =
            last->target >= 0 ? cfg->block_of[last->target] : UPY_NO_BLOCK;
        b->handler = code->ins[b->start].handler >= 0
                         ? cfg->block_of[code->ins[b->start].handler]
                         : UPY_NO_BLOCK;
        if (b->handler != UPY_NO_BLOCK)
            cfg->blocks[b->handler].is_handler = 1;
        b->depth_in = -1;
    }
    return SUCCESS;
}

static int normal_predecessors(upy_cfg *cfg, upy_arena *arena) {
    uint32_t i;
    for (i = 0; i < cfg->count; i++) {
        upy_block *b = &cfg->blocks[i];
        if (b->next != UPY_NO_BLOCK)
            cfg->blocks[b->next].npreds++;
        if (b->jump != UPY_NO_BLOCK && b->jump != b->next)
            cfg->blocks[b->jump].npreds++;
    }
    for (i = 0; i < cfg->count; i++) {
        upy_block *b = &cfg->blocks[i];
        b->preds =
            upy_arena_array(arena, b->npreds ? b->npreds : 1, sizeof(int32_t));
        if (!b->preds)
            return ERROR;
        b->npreds = 0;
    }
    for (i = 0; i < cfg->count; i++) {
        upy_block *b = &cfg->blocks[i];
        if (b->next != UPY_NO_BLOCK) {
            upy_block *s = &cfg->blocks[b->next];
            s->preds[s->npreds++] = (int32_t)i;
        }
        if (b->jump != UPY_NO_BLOCK && b->jump != b->next) {
            upy_block *s = &cfg->blocks[b->jump];
            s->preds[s->npreds++] = (int32_t)i;
        }
    }
    return SUCCESS;
}

/* Numbers the spans of the blocks in a dominator tree (see
 * upy_block.dom_enter), in_tree[i] set: children are listed by idom, then
 * walked with an explicit stack from each root (the entry, then each
 * root of code no path reaches), so that deep trees cannot exhaust the C
 * stack. */
static int number_dominator_tree(upy_cfg *cfg, upy_arena *arena,
                                 const uint8_t *in_tree) {
    uint32_t n = cfg->count, i, root, sp = 0, clock = 0;
    int32_t *first = upy_arena_array(arena, n, sizeof(int32_t));
    int32_t *sibling = upy_arena_array(arena, n, sizeof(int32_t));
    int32_t *stack = upy_arena_array(arena, n, sizeof(int32_t));
    uint8_t *entered = upy_arena_array(arena, n, 1);
    if (!first || !sibling || !stack || !entered)
        return ERROR;
    for (i = 0; i < n; i++)
        first[i] = sibling[i] = UPY_NO_BLOCK;
    memset(entered, 0, n);
    for (i = n; i-- > 1;) {
        int32_t p = cfg->blocks[i].idom;
        if (p != UPY_NO_BLOCK && in_tree[i]) {
            sibling[i] = first[p];
            first[p] = (int32_t)i;
        }
    }
    for (root = 0; root < n; root++) {
        if (!in_tree[root] || cfg->blocks[root].idom != UPY_NO_BLOCK)
            continue;
        stack[sp++] = (int32_t)root;
        while (sp) {
            int32_t b = stack[sp - 1];
            if (!entered[b]) {
                int32_t c;
                entered[b] = 1;
                cfg->blocks[b].dom_enter = clock++;
                for (c = first[b]; c != UPY_NO_BLOCK; c = sibling[c])
                    stack[sp++] = c;
            } else {
                cfg->blocks[b].dom_leave = clock++;
                sp--;
            }
        }
    }
    return SUCCESS;
}

/* The successors of dead block i that are dead too, into list (at most
 * 3); the edges into reached code are left out. */
static uint32_t dead_successors(const upy_cfg *cfg, uint32_t i, int32_t *list) {
    const upy_block *b = &cfg->blocks[i];
    int32_t succ[3] = {b->next, b->jump, b->handler};
    uint32_t k, n = 0;
    for (k = 0; k < 3; k++)
        if (succ[k] != UPY_NO_BLOCK && cfg->blocks[succ[k]].rpo == UINT32_MAX)
            list[n++] = succ[k];
    return n;
}

/* The entries of code no path reaches, as the virtual root's successors
 * (es->rev[cfg->count]): in layout order, each dead block that those
 * before it do not reach along dead edges (es->rev).  The first block of
 * a stretch after a raise, break or continue is one; the handler of a
 * dead try is not (its try's body reaches it), nor the else of a dead
 * if, so that a dead loop's header dominates all of its body. */
static int dead_entries(const upy_cfg *cfg, edge_source *es, upy_arena *arena) {
    uint32_t i, sp = 0, k, root = cfg->count;
    uint8_t *reached = upy_arena_array(arena, cfg->count, 1);
    int32_t *stack = upy_arena_array(arena, cfg->count, sizeof(int32_t));
    if (!reached || !stack)
        return ERROR;
    for (i = 0; i < cfg->count; i++) {
        if (cfg->blocks[i].rpo != UINT32_MAX || reached[i])
            continue;
        es->rev[root][es->nrev[root]++] = (int32_t)i;
        reached[i] = 1;
        stack[sp++] = (int32_t)i;
        while (sp) {
            int32_t b = stack[--sp];
            for (k = 0; k < es->nrev[b]; k++)
                if (!reached[es->rev[b][k]]) {
                    reached[es->rev[b][k]] = 1;
                    stack[sp++] = es->rev[b][k];
                }
        }
    }
    return SUCCESS;
}

/* Dominators of code no path reaches: those of the graph of its blocks
 * alone, rooted at a virtual node (cfg->count) with an edge to each
 * of its entries (dead_entries); a block the root dominates alone roots a tree
 * of its own (idom UPY_NO_BLOCK).  Reached blocks keep theirs, and the
 * trees stay apart: no dead block dominates a reached one or the other
 * way.  Without them no loop of dead code had a header, and
 * `raise e` / `while c: with m: pass` (3.8 / 3.9) was marked "could not
 * recover this region" (campaign seed 4444, program 192).  Sets
 * in_tree[i] for the dead blocks in a tree. */
static int dead_dominators(upy_cfg *cfg, upy_arena *arena, uint8_t *in_tree) {
    edge_source es = {cfg, 1, NULL, NULL};
    graph_walk w;
    uint32_t i, n = cfg->count + 1;
    memset(&w, 0, sizeof w);
    w.arena = arena;
    w.n = n;
    es.rev = upy_arena_array(arena, n, sizeof(int32_t *));
    es.nrev = upy_arena_array(arena, n, sizeof(uint32_t));
    if (!es.rev || !es.nrev ||
        !(es.rev[cfg->count] = upy_arena_array(arena, n, sizeof(int32_t))))
        return ERROR;
    for (i = 0; i < cfg->count; i++) {
        es.rev[i] = upy_arena_array(arena, 3, sizeof(int32_t));
        if (!es.rev[i])
            return ERROR;
        if (cfg->blocks[i].rpo == UINT32_MAX)
            es.nrev[i] = dead_successors(cfg, i, es.rev[i]);
    }
    RETURN_IF_ERROR(dead_entries(cfg, &es, arena));
    RETURN_IF_ERROR(dominators(&es, &w, (int32_t)cfg->count));
    for (i = 0; i < cfg->count; i++) {
        if (cfg->blocks[i].rpo != UINT32_MAX || w.idom[i] == UPY_NO_BLOCK)
            continue;
        in_tree[i] = 1;
        cfg->blocks[i].idom =
            w.idom[i] == (int32_t)cfg->count ? UPY_NO_BLOCK : w.idom[i];
    }
    return SUCCESS;
}

static int compute_dominators(upy_cfg *cfg, upy_arena *arena) {
    edge_source es = {cfg, 0, NULL, NULL};
    graph_walk w;
    uint32_t i;
    uint8_t *in_tree = upy_arena_array(arena, cfg->count, 1);

    if (!in_tree)
        return ERROR;
    memset(&w, 0, sizeof w);
    w.arena = arena;
    w.n = cfg->count;
    /* (The reverse post-order is wanted of the forward graph only.) */
    RETURN_IF_ERROR(depth_first(&es, &w, 0));
    RETURN_IF_ERROR(dominators(&es, &w, 0));
    for (i = 0; i < cfg->count; i++) {
        cfg->blocks[i].rpo = w.number[i];
        cfg->blocks[i].idom = i == 0 ? UPY_NO_BLOCK : w.idom[i];
        cfg->blocks[i].dom_enter = UINT32_MAX;
        cfg->blocks[i].dom_leave = 0;
        in_tree[i] = w.number[i] != UINT32_MAX;
    }
    RETURN_IF_ERROR(dead_dominators(cfg, arena, in_tree));
    return number_dominator_tree(cfg, arena, in_tree);
}

/* Whether block b leaves the code: a return or a raise, no normal edge out. */
static int leaves_code(const upy_block *b) {
    return b->next == UPY_NO_BLOCK && b->jump == UPY_NO_BLOCK;
}

/* Which blocks reach a return or a raise along normal edges: a walk back
 * from those blocks over the predecessor lists.  Returns NULL when out of
 * memory. */
static uint8_t *blocks_reaching_exit(const upy_cfg *cfg, upy_arena *arena) {
    uint8_t *reach = upy_arena_array(arena, cfg->count ? cfg->count : 1, 1);
    int32_t *stack =
        upy_arena_array(arena, cfg->count ? cfg->count : 1, sizeof(int32_t));
    uint32_t i, sp = 0, k;
    if (!reach || !stack)
        return NULL;
    memset(reach, 0, cfg->count);
    for (i = 0; i < cfg->count; i++)
        if (leaves_code(&cfg->blocks[i])) {
            reach[i] = 1;
            stack[sp++] = (int32_t)i;
        }
    while (sp) {
        const upy_block *b = &cfg->blocks[stack[--sp]];
        for (k = 0; k < b->npreds; k++)
            if (!reach[b->preds[k]]) {
                reach[b->preds[k]] = 1;
                stack[sp++] = b->preds[k];
            }
    }
    return reach;
}

/* Whether block i leaves toward the virtual exit of the post-dominator
 * graph: a return or a raise, or the jump back of an endless loop (one no
 * path leaves).  Without the latter, no block of a function that ends in
 * `while True:` without a break would have a post-dominator, and the join
 * of `w = x if c else y` before such a loop would go unseen. */
static int leaves_to_exit(const upy_cfg *cfg, const uint8_t *reach,
                          uint32_t i) {
    const upy_block *b = &cfg->blocks[i];
    return leaves_code(b) ||
           (!reach[i] && b->jump != UPY_NO_BLOCK && b->jump <= (int32_t)i);
}

/* Post-dominators: dominators of the reversed normal-edge graph, rooted
 * at a virtual exit (node cfg->count) that every return and raise
 * reaches, and every endless loop's jump back (leaves_to_exit). */
static int compute_post_dominators(upy_cfg *cfg, upy_arena *arena) {
    edge_source es = {cfg, 1, NULL, NULL};
    graph_walk w;
    uint32_t i, n = cfg->count + 1;
    uint8_t *reach = blocks_reaching_exit(cfg, arena);

    es.rev = upy_arena_array(arena, n, sizeof(int32_t *));
    es.nrev = upy_arena_array(arena, n, sizeof(uint32_t));
    if (!reach || !es.rev || !es.nrev)
        return ERROR;
    /* Reversed successors of a block are its normal predecessors; those of
     * the exit are the blocks that leave toward it. */
    for (i = 0; i < cfg->count; i++) {
        es.rev[i] = cfg->blocks[i].preds;
        es.nrev[i] = cfg->blocks[i].npreds;
        es.nrev[cfg->count] += (uint32_t)leaves_to_exit(cfg, reach, i);
    }
    es.rev[cfg->count] = upy_arena_array(
        arena, es.nrev[cfg->count] ? es.nrev[cfg->count] : 1, sizeof(int32_t));
    if (!es.rev[cfg->count])
        return ERROR;
    es.nrev[cfg->count] = 0;
    for (i = 0; i < cfg->count; i++)
        if (leaves_to_exit(cfg, reach, i))
            es.rev[cfg->count][es.nrev[cfg->count]++] = (int32_t)i;

    memset(&w, 0, sizeof w);
    w.arena = arena;
    w.n = n;
    RETURN_IF_ERROR(dominators(&es, &w, (int32_t)cfg->count));
    for (i = 0; i < cfg->count; i++) {
        int32_t p = w.idom[i];
        cfg->blocks[i].ipdom =
            p == UPY_NO_BLOCK || p == (int32_t)cfg->count ? UPY_NO_BLOCK : p;
    }
    return SUCCESS;
}

int upy_cfg_dominates(const upy_cfg *cfg, int32_t a, int32_t b) {
    const upy_block *ba, *bb;
    if (a < 0 || b < 0)
        return 0;
    ba = &cfg->blocks[a];
    bb = &cfg->blocks[b];
    /* (A block in no span is dominated by none; the trees of unreachable
     * code, dead_dominators, hold spans apart from the entry's.) */
    if (bb->dom_enter == UINT32_MAX)
        return 0;
    return a == b ||
           (ba->dom_enter < bb->dom_enter && bb->dom_leave < ba->dom_leave);
}

int upy_cfg_falls_into(const upy_cfg *cfg, int32_t b) {
    return b > 0 && b < (int32_t)cfg->count && cfg->blocks[b - 1].next == b;
}

int upy_cfg_entered_only_from(const upy_cfg *cfg, int32_t from, int32_t to,
                              int32_t lo, int32_t hi) {
    int32_t b;
    uint32_t k;
    for (b = from; b < to; b++)
        for (k = 0; k < cfg->blocks[b].npreds; k++)
            if (cfg->blocks[b].preds[k] < lo || cfg->blocks[b].preds[k] >= hi)
                return 0;
    return 1;
}

/* Whether the edge from block `from` to block h closes a loop: h
 * dominates `from`.  In code no path reaches (3.8 / 3.9 keep code after
 * a raise, break or continue: peephole.c drops code after a return
 * only), h must dominate every block laid out from h to the last one that
 * jumps back to it as well: the handler of a dead try that
 * normalize/blocks.c does not walk (a bare `except:`, no match) is dead
 * code of its own there, which the loop could not hold (`raise e` /
 * `while c: try: pass / except: pass` stays read as an if, as before).
 * A lone jump back to h may be such code: the jump to the loop's next
 * turn that 3.8 / 3.9 leave after the END_FINALLY of a try in a loop,
 * which nothing reaches (every way out of the try jumps there itself). */
static int closes_loop(const upy_cfg *cfg, int32_t from, int32_t h) {
    int32_t k, last = from;
    const upy_block *b;
    if (h == UPY_NO_BLOCK || !upy_cfg_dominates(cfg, h, from))
        return 0;
    if (cfg->blocks[h].rpo != UINT32_MAX)
        return 1;
    for (k = from + 1; k < (int32_t)cfg->count; k++)
        if (cfg->blocks[k].next == h || cfg->blocks[k].jump == h)
            last = k;
    for (k = h; k <= last; k++) {
        b = &cfg->blocks[k];
        if (!upy_cfg_dominates(cfg, h, k) &&
            !(b->jump == h && b->next == UPY_NO_BLOCK &&
              b->end - b->start == 1))
            return 0;
    }
    return 1;
}

static void mark_loops(upy_cfg *cfg) {
    uint32_t i;
    for (i = 0; i < cfg->count; i++) {
        const upy_block *b = &cfg->blocks[i];
        if (closes_loop(cfg, (int32_t)i, b->next))
            cfg->blocks[b->next].is_loop_header = 1;
        if (closes_loop(cfg, (int32_t)i, b->jump))
            cfg->blocks[b->jump].is_loop_header = 1;
    }
}

/* Propagates stack depths from the blocks on work[0, nwork), whose
 * depth_in is set; a handler starts at its unwind depth plus the exception
 * (and the offset, with lasti).  In reached code (dead = 0) an impossible
 * depth or two that meet is corrupt code; in code no way reaches (dead = 1,
 * see seed_dead_depths) the walk only stops there. */
static unpyc_status propagate_depths(upy_cfg *cfg, int32_t *work,
                                     uint32_t nwork, int dead,
                                     unpyc_error *err) {
    while (nwork) {
        int32_t bi = work[--nwork];
        upy_block *b = &cfg->blocks[bi];
        int32_t depth = b->depth_in, targets[3], target_depth[3];
        uint32_t i, nt = 0;

        for (i = b->start; i + 1 < b->end; i++) {
            depth += upy_nin_stack_effect(&cfg->code->ins[i], 0);
            if (depth < 0 || depth >= UPY_MAX_STACK_EFFECT) {
                if (dead)
                    break;
                return upy_fail(
                    err, UNPYC_E_CORRUPT, (long long)cfg->code->ins[i].offset,
                    "stack depth %ld at offset %u is impossible", (long)depth,
                    (unsigned)cfg->code->ins[i].offset);
            }
        }
        if (i + 1 < b->end)
            continue;
        if (b->next != UPY_NO_BLOCK) {
            targets[nt] = b->next;
            target_depth[nt++] =
                depth + upy_nin_stack_effect(&cfg->code->ins[b->end - 1], 0);
        }
        if (b->jump != UPY_NO_BLOCK) {
            targets[nt] = b->jump;
            target_depth[nt++] =
                depth + upy_nin_stack_effect(&cfg->code->ins[b->end - 1], 1);
        }
        if (b->handler != UPY_NO_BLOCK) {
            const upy_nin *first = &cfg->code->ins[b->start];
            targets[nt] = b->handler;
            target_depth[nt++] =
                first->handler_depth + 1 + (first->handler_lasti ? 1 : 0);
        }
        for (i = 0; i < nt; i++) {
            upy_block *t = &cfg->blocks[targets[i]];
            if (target_depth[i] < 0 ||
                target_depth[i] >= UPY_MAX_STACK_EFFECT) {
                if (dead)
                    continue;
                return upy_fail(err, UNPYC_E_CORRUPT,
                                (long long)cfg->code->ins[b->end - 1].offset,
                                "stack underflow at offset %u",
                                (unsigned)cfg->code->ins[b->end - 1].offset);
            }
            if (t->depth_in < 0) {
                t->depth_in = target_depth[i];
                work[nwork++] = targets[i];
            } else if (t->depth_in != target_depth[i] && !dead) {
                return upy_fail(err, UNPYC_E_CORRUPT,
                                (long long)cfg->code->ins[t->start].offset,
                                "stack depths %d and %d meet at offset %u",
                                (int)t->depth_in, (int)target_depth[i],
                                (unsigned)cfg->code->ins[t->start].offset);
            }
        }
    }
    return UNPYC_OK;
}

/* The stack depth where control would go on after block b's last
 * instruction, or -1 when b's own depth is not known. */
static int32_t depth_after(const upy_cfg *cfg, const upy_block *b) {
    int32_t depth = b->depth_in;
    uint32_t i;
    if (depth < 0)
        return -1;
    for (i = b->start; i < b->end; i++)
        depth += upy_nin_stack_effect(&cfg->code->ins[i], 0);
    return depth >= 0 && depth < UPY_MAX_STACK_EFFECT ? depth : -1;
}

/* Depths for code no way reaches: 3.8-3.9 keep the statements after a
 * raise, break or continue (peephole.c drops code after a return only).
 * Such code starts where the statement before it would have gone on, at
 * the depth after its last instruction (`raise E` pops what it loaded:
 * the depth of the statement boundary), as the compiler laid it out;
 * from there the depths run as in reached code.  Without them a
 * conditional expression there reads as an if statement whose branches
 * leave a value, which is marked (campaign seed 4343, 3.8 / 3.9:
 * `raise 0` / `x = 1 if u else 2`). */
static unpyc_status seed_dead_depths(upy_cfg *cfg, int32_t *work,
                                     unpyc_error *err) {
    uint32_t i;
    for (i = 1; i < cfg->count; i++) {
        upy_block *b = &cfg->blocks[i];
        int32_t depth;
        unpyc_status st;
        if (b->depth_in >= 0 || cfg->blocks[i - 1].next != UPY_NO_BLOCK ||
            (depth = depth_after(cfg, &cfg->blocks[i - 1])) < 0)
            continue;
        b->depth_in = depth;
        work[0] = (int32_t)i;
        st = propagate_depths(cfg, work, 1, 1, err);
        if (st != UNPYC_OK)
            return st;
    }
    return UNPYC_OK;
}

/* Propagates stack depths from the entry, then into code no way
 * reaches. */
static unpyc_status compute_depths(upy_cfg *cfg, upy_arena *arena,
                                   unpyc_error *err) {
    int32_t *work = upy_arena_array(arena, cfg->count + 1, sizeof(int32_t));
    unpyc_status st;

    if (!work)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if (!cfg->count)
        return UNPYC_OK;
    cfg->blocks[0].depth_in = 0;
    work[0] = 0;
    st = propagate_depths(cfg, work, 1, 0, err);
    if (st != UNPYC_OK)
        return st;
    return seed_dead_depths(cfg, work, err);
}

/* Both dominator trees of code with one block (no jump, no handler: most
 * small functions), what the general computation gives there: the entry
 * dominates itself alone, and only the virtual exit post-dominates it. */
static void single_block_trees(upy_cfg *cfg) {
    upy_block *b = &cfg->blocks[0];
    b->rpo = 0;
    b->idom = b->ipdom = UPY_NO_BLOCK;
    b->dom_enter = 0;
    b->dom_leave = 1;
}

/* Both dominator trees into cfg->blocks.  What computing them allocates
 * (depth-first orders, predecessor lists, Lengauer and Tarjan's tables)
 * is read only into the blocks: it lives in an arena of its own, released
 * here, not in the code object's scratch arena for all of its recovery. */
static int compute_dominator_trees(upy_cfg *cfg, upy_arena *arena) {
    upy_arena work;
    int failed;
    if (cfg->count == 1) {
        single_block_trees(cfg);
        return SUCCESS;
    }
    upy_arena_init_scratch(&work, arena);
    failed =
        compute_dominators(cfg, &work) || compute_post_dominators(cfg, &work);
    if (work.over_limit)
        arena->over_limit = 1;
    upy_arena_release(&work);
    return failed ? ERROR : SUCCESS;
}

unpyc_status upy_cfg_build(const upy_ncode *code, upy_arena *arena,
                           upy_cfg *cfg, unpyc_error *err) {
    memset(cfg, 0, sizeof *cfg);
    cfg->code = code;
    if (make_blocks(cfg, arena) || normal_predecessors(cfg, arena) ||
        (cfg->count && compute_dominator_trees(cfg, arena)))
        return upy_fail(err,
                        arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                        -1, "no memory for the control-flow graph");
    mark_loops(cfg);
    return compute_depths(cfg, arena, err);
}

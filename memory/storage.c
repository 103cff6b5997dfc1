/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The storage behind buffers and SVM allocations: device memory, kept
 * apart from the host's heap. OpenCL leaves an access outside a buffer
 * undefined, but a kernel's small overrun (a work-item count rounded up
 * past the buffer's end) must not reach malloc's metadata and abort the
 * application later: it lands in the slack of its own block, in another
 * buffer's block, or on a guard page, where it faults and the fault ends
 * the command (exec/fault.c).
 *
 * Sizes from REFCL_STORAGE_MAP_MIN up are mapped on their own. Smaller
 * ones come from blocks of a power-of-two size class, carved from chunks
 * mapped for that class; a chunk ends with a guard page, and the record of
 * which blocks are taken lives in the chunk's header on the heap, never
 * among the blocks a kernel can write.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "refcl/memory.h"

/* The smallest block: every allocation's alignment (and a cache line). */
#define BLOCK_MIN REFCL_MEM_BASE_ALIGN
/* Size classes: BLOCK_MIN << 0 ... up to REFCL_STORAGE_MAP_MIN. */
#define CLASSES 10
/* Bytes of blocks in one chunk: 16 of the largest class. */
#define CHUNK_BYTES ((size_t)1024 * 1024)
#define CHUNK_BLOCKS_MAX (CHUNK_BYTES / BLOCK_MIN)
#define WORD_BITS 64

_Static_assert(BLOCK_MIN << (CLASSES - 1) == REFCL_STORAGE_MAP_MIN,
               "the largest class holds everything below the mapped sizes");

/* A chunk's header: where its blocks are and which are taken. */
struct chunk {
    unsigned char *blocks;  /* CHUNK_BYTES, then a guard page */
    size_t taken;           /* blocks in use */
    uint64_t used[CHUNK_BLOCKS_MAX / WORD_BITS];
    struct chunk *next;
};

struct size_class {
    pthread_mutex_t lock;
    struct chunk *chunks;
};

static struct size_class classes[CLASSES] = {
#define CLASS_INIT {PTHREAD_MUTEX_INITIALIZER, NULL}
    CLASS_INIT, CLASS_INIT, CLASS_INIT, CLASS_INIT, CLASS_INIT,
    CLASS_INIT, CLASS_INIT, CLASS_INIT, CLASS_INIT, CLASS_INIT,
#undef CLASS_INIT
};

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

/* ---- mapped sizes ------------------------------------------------------ */

/* Maps @p size zeroed bytes; from REFCL_STORAGE_HUGE_MIN on, aligned to
 * a huge page and asked to be backed by them (THP's "madvise" mode, Debian's
 * default): a stream over the buffer takes a TLB entry and a page fault per
 * 2 MiB instead of per 4 KiB. */
static void *storage_map(size_t size)
{
    const size_t huge = REFCL_STORAGE_HUGE_PAGE;
    const size_t page = page_size();
    bool hugepages = size >= REFCL_STORAGE_HUGE_MIN;
    size_t whole = (size + page - 1) & ~(page - 1);
    size_t mapped = hugepages ? whole + huge : whole;
    /* Zero pages on demand; no MAP_NORESERVE, so that a size the system
     * cannot commit fails here, not in a page fault. */
    char *bytes = mmap(NULL, mapped, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (bytes == MAP_FAILED)
        return NULL;
    if (!hugepages)
        return bytes;
    /* The slack before and after the aligned pages, given back whole (page
     * multiples: refcl_storage_free unmaps only the buffer's pages). */
    char *aligned = (char *)(((uintptr_t)bytes + huge - 1) & ~(huge - 1));
    if (aligned > bytes)
        munmap(bytes, (size_t)(aligned - bytes));
    size_t tail = (size_t)(bytes + mapped - (aligned + whole));
    if (tail > 0)
        munmap(aligned + whole, tail);
    /* Advice only: where THP is off the mapping stays in small pages. */
    (void)madvise(aligned, size, MADV_HUGEPAGE);
    return aligned;
}

/* ---- blocks of a size class --------------------------------------------- */

/* The class whose blocks hold @p size bytes at @p alignment (at most a
 * page): blocks lie at multiples of their size from a page boundary, so a
 * block is aligned to its size or to a page, whichever is less. */
static unsigned class_of(size_t size, size_t alignment)
{
    size_t need = size > alignment ? size : alignment;
    unsigned c = 0;
    while ((size_t)BLOCK_MIN << c < need)
        c++;
    return c;
}

static size_t block_bytes(unsigned c)
{
    return (size_t)BLOCK_MIN << c;
}

static size_t chunk_blocks(unsigned c)
{
    return CHUNK_BYTES / block_bytes(c);
}

/* A new chunk with no block taken, or NULL when out of memory. */
static struct chunk *chunk_map(void)
{
    struct chunk *chunk = calloc(1, sizeof(*chunk));
    if (!chunk)
        return NULL;
    size_t guard = page_size();
    unsigned char *bytes = mmap(NULL, CHUNK_BYTES + guard,
                                PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (bytes == MAP_FAILED) {
        free(chunk);
        return NULL;
    }
    /* An overrun past the last block faults instead of reaching the
     * mapping that follows. */
    if (mprotect(bytes + CHUNK_BYTES, guard, PROT_NONE) != 0) {
        munmap(bytes, CHUNK_BYTES + guard);
        free(chunk);
        return NULL;
    }
    chunk->blocks = bytes;
    return chunk;
}

static void chunk_unmap(struct chunk *chunk)
{
    munmap(chunk->blocks, CHUNK_BYTES + page_size());
    free(chunk);
}

/* Takes a free block of @p chunk (class @p c), or returns NULL if all are
 * taken. */
static void *chunk_take(struct chunk *chunk, unsigned c)
{
    size_t count = chunk_blocks(c);
    if (chunk->taken == count)
        return NULL;
    for (size_t w = 0; w * WORD_BITS < count; w++) {
        uint64_t free_bits = ~chunk->used[w];
        if (count - w * WORD_BITS < WORD_BITS)
            free_bits &= ((uint64_t)1 << (count - w * WORD_BITS)) - 1;
        if (!free_bits)
            continue;
        size_t bit = (size_t)__builtin_ctzll(free_bits);
        chunk->used[w] |= (uint64_t)1 << bit;
        chunk->taken++;
        return chunk->blocks + (w * WORD_BITS + bit) * block_bytes(c);
    }
    return NULL;
}

static bool chunk_holds(const struct chunk *chunk, const void *bytes)
{
    const unsigned char *at = bytes;
    return at >= chunk->blocks && at < chunk->blocks + CHUNK_BYTES;
}

static void *block_alloc(unsigned c)
{
    struct size_class *sc = &classes[c];
    void *bytes = NULL;
    pthread_mutex_lock(&sc->lock);
    for (struct chunk *chunk = sc->chunks; chunk && !bytes;
         chunk = chunk->next)
        bytes = chunk_take(chunk, c);
    if (!bytes) {
        struct chunk *chunk = chunk_map();
        if (chunk) {
            chunk->next = sc->chunks;
            sc->chunks = chunk;
            bytes = chunk_take(chunk, c);
        }
    }
    pthread_mutex_unlock(&sc->lock);
    return bytes;
}

/* Gives the block back if it is of class @p c; a chunk left empty is
 * unmapped unless it is the class's only one (a buffer made and released
 * in a loop keeps it). @return true if the block was of that class. */
static bool block_free(unsigned c, void *bytes)
{
    struct size_class *sc = &classes[c];
    struct chunk *empty = NULL;
    bool found = false;
    pthread_mutex_lock(&sc->lock);
    for (struct chunk **at = &sc->chunks; *at; at = &(*at)->next) {
        struct chunk *chunk = *at;
        if (!chunk_holds(chunk, bytes))
            continue;
        size_t index = (size_t)((unsigned char *)bytes - chunk->blocks) /
                       block_bytes(c);
        chunk->used[index / WORD_BITS] &= ~((uint64_t)1 << (index % WORD_BITS));
        if (--chunk->taken == 0 && (chunk != sc->chunks || chunk->next)) {
            *at = chunk->next;
            empty = chunk;
        }
        found = true;
        break;
    }
    pthread_mutex_unlock(&sc->lock);
    if (empty)
        chunk_unmap(empty);
    return found;
}

/* ---- the storage -------------------------------------------------------- */

void *refcl_storage_alloc(size_t size, size_t alignment)
{
    if (size >= REFCL_STORAGE_MAP_MIN)
        return storage_map(size);
    void *bytes = block_alloc(class_of(size, alignment));
    /* A reused block starts zeroed like a fresh one: no stale bytes of
     * another buffer. */
    if (bytes)
        memset(bytes, 0, size);
    return bytes;
}

void refcl_storage_free(void *bytes, size_t size)
{
    if (size >= REFCL_STORAGE_MAP_MIN)
        munmap(bytes, size);
    else if (bytes)
        /* Its class is that of its size or, for a larger alignment, a
         * larger one. */
        for (unsigned c = class_of(size, 1); c < CLASSES; c++)
            if (block_free(c, bytes))
                return;
}

void refcl_storage_teardown(void)
{
    for (unsigned c = 0; c < CLASSES; c++) {
        while (classes[c].chunks) {
            struct chunk *chunk = classes[c].chunks;
            classes[c].chunks = chunk->next;
            chunk_unmap(chunk);
        }
    }
}

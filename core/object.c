/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object pools: allocation, validation and dispatch-data propagation for
 * every CL object (see include/refcl/object.h for the why).
 *
 * Each object type has a pool of equal slots, numbered from 0, laid out in
 * segments that double in size: segment 0 holds REFCL_SEGMENT0_SLOTS
 * slots, segment k that many << k. A pool's slot size is its struct's,
 * rounded up to a cache line, fixed by its first allocation (all of a
 * type's come from refcl_object_alloc with the same size). A segment is one anonymous mapping, made when
 * the first of its slots is needed and kept until unload, so validation can
 * always read a slot's state: what a pool costs follows the most objects it
 * ever held, and a program with a handful of objects maps one segment of
 * each type it uses. Pages are committed as slots are first written.
 *
 * Each pool is cut into stripes, each with its own lock, a chunk of fresh
 * slots and a FIFO quarantine of freed ones, so that threads creating and
 * releasing objects on different CPUs do not share a lock or a free list. A
 * thread allocates from the stripe of the CPU it runs on; a slot goes back
 * to the stripe it came from, so that objects created on one thread and
 * released on another are reused all the same. Freed slots wait in the
 * quarantine before reuse, so a just-released handle stays invalid for a
 * while instead of aliasing the next object created; only when no memory
 * is left for fresh slots are quarantined ones taken early. The quarantine
 * is linked through the header's own `free_next`, so a released object's
 * `parent` still says what it was.
 *
 * Measured (docs/results.md): with slots of 256 bytes for every
 * type, a live user event cost 264 bytes of RSS; with per-type slots, 200
 * (a 168-byte event in a 192-byte slot), at 16 million events. The
 * slot-start check is a multiply and a rotate instead of a mask; creating
 * and releasing a user event, a buffer or a context takes as many
 * instructions as before (533 against 540 for an event).
 */
#include "refcl/object.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

/* LeakSanitizer scans globals, stacks and heap, not these mappings:
 * register them, or every malloc'd pointer that only an object holds looks
 * leaked. */
#ifdef REFCL_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define STRIPES 8u
/* Freed slots a stripe holds back before reusing the oldest. */
#define QUARANTINE 1024u
/* Fresh slots a stripe takes from its pool at a time (16 to 64 KiB or
 * more, with the slot size); divides REFCL_SEGMENT0_SLOTS, so no chunk
 * straddles two segments. */
#define CHUNK 256u
_Static_assert(REFCL_SEGMENT0_SLOTS % CHUNK == 0, "chunks fit segments");

/* A stripe of a pool; 64-byte aligned so that no two share a cache line. */
struct stripe {
    _Alignas(64) pthread_mutex_t lock;
    size_t fresh, fresh_end;         /* its chunk of never-used slots */
    struct refcl_object *free_head;  /* FIFO, linked through `free_next` */
    struct refcl_object *free_tail;
    size_t free_count;
};

struct pool {
    pthread_mutex_t grow_lock;       /* guards handed and segment mapping */
    size_t handed;                   /* slots handed to stripes, in order */
    struct stripe stripes[STRIPES];
};

struct refcl_pool_map refcl_pools[REFCL_TYPE_COUNT];
static struct pool pools[REFCL_TYPE_COUNT];

static pthread_once_t pools_once = PTHREAD_ONCE_INIT;

static void pools_init(void)
{
    for (int t = 0; t < REFCL_TYPE_COUNT; t++) {
        pthread_mutex_init(&pools[t].grow_lock, NULL);
        for (unsigned s = 0; s < STRIPES; s++)
            pthread_mutex_init(&pools[t].stripes[s].lock, NULL);
    }
}

static size_t segment_slots(unsigned k)
{
    return REFCL_SEGMENT0_SLOTS << k;
}

/* The segment of slot @p index: slots before segment k number
 * REFCL_SEGMENT0_SLOTS * (2^k - 1). */
static unsigned segment_of(size_t index)
{
    size_t q = index / REFCL_SEGMENT0_SLOTS + 1;
    return (unsigned)(sizeof(long long) * 8 - 1 - __builtin_clzll(q));
}

static size_t segment_first(unsigned k)
{
    return REFCL_SEGMENT0_SLOTS * (((size_t)1 << k) - 1);
}

/* The inverse of odd @p d modulo 2^64, by Newton's iteration: each step
 * doubles the correct low bits, from the 3 that d itself gets right. */
static uint64_t odd_inverse(uint64_t d)
{
    uint64_t x = d;
    for (int i = 0; i < 5; i++)
        x *= 2 - d * x;
    return x;
}

/* Fixes the slot size of the @p type pool at @p size rounded up to a cache
 * line, and what validation needs to recognise a slot's start. Under its
 * grow_lock, before segment 0 is published. False if the size is past
 * what a pool of REFCL_SEGMENTS segments can index. */
static bool pool_shape(enum refcl_type type, size_t size)
{
    struct refcl_pool_map *map = &refcl_pools[type];
    size_t slot = (size + REFCL_SLOT_ALIGN - 1) / REFCL_SLOT_ALIGN *
                  REFCL_SLOT_ALIGN;
    if (slot > UINT32_MAX / 2)
        return false;
    unsigned shift = (unsigned)__builtin_ctzll(slot);
    map->shift = shift;
    map->odd_inverse = odd_inverse(slot >> shift);
    map->most_slots = UINT64_MAX / slot;
    map->segment0_bytes = REFCL_SEGMENT0_SLOTS * slot;
    map->slot_size = (uint32_t)slot;
    return true;
}

static size_t slot_size(enum refcl_type type)
{
    return refcl_pools[type].slot_size;
}

/* Slot @p index of the @p type pool; its segment is mapped. */
static struct refcl_object *slot_at(enum refcl_type type, size_t index)
{
    unsigned k = segment_of(index);
    uintptr_t base =
        atomic_load_explicit(&refcl_pools[type].base[k], memory_order_relaxed);
    return (struct refcl_object *)(base + (index - segment_first(k)) *
                                              slot_size(type));
}

/* Maps segment @p k of the @p type pool. Under its grow_lock. */
static bool segment_map(enum refcl_type type, unsigned k)
{
    size_t bytes = segment_slots(k) * slot_size(type);
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return false;
#ifdef REFCL_LSAN
    __lsan_register_root_region(base, bytes);
#endif
    atomic_store_explicit(&refcl_pools[type].base[k], (uintptr_t)base,
                          memory_order_release);
    return true;
}

/*
 * Commits the pages of the chunk at slot @p start in one call: one page
 * fault per page costs ~10 us on some virtual machines, 16 times what
 * prefaulting them together does. ENOMEM means the memory is not there; an
 * older kernel without MADV_POPULATE_WRITE (Linux 5.14) faults them in as
 * they are written.
 */
static bool chunk_commit(enum refcl_type type, size_t start)
{
    return madvise(slot_at(type, start), CHUNK * slot_size(type),
                   MADV_POPULATE_WRITE) == 0 ||
           errno != ENOMEM;
}

/* Gives stripe @p s the next chunk of fresh slots of its pool, mapping
 * the segment they lie in first if need be (and shaping the pool for
 * objects of @p size, on its first). Under the stripe's lock. */
static bool chunk_take(enum refcl_type type, size_t size, unsigned s)
{
    struct stripe *stripe = &pools[type].stripes[s];
    struct pool *pool = &pools[type];
    pthread_mutex_lock(&pool->grow_lock);
    size_t start = pool->handed;
    unsigned k = segment_of(start);
    bool ok = (slot_size(type) || pool_shape(type, size)) &&
              k < REFCL_SEGMENTS &&
              (atomic_load_explicit(&refcl_pools[type].base[k],
                                    memory_order_relaxed) ||
               segment_map(type, k)) &&
              chunk_commit(type, start);
    if (ok) {
        pool->handed = start + CHUNK;
        stripe->fresh = start;
        stripe->fresh_end = start + CHUNK;
    }
    pthread_mutex_unlock(&pool->grow_lock);
    return ok;
}

/* The stripe this thread uses: its CPU's, else one fixed per thread when
 * the CPU cannot be read. */
static unsigned stripe_pick(void)
{
    static atomic_uint threads_seen;
    static _Thread_local unsigned thread_stripe = STRIPES;
    int cpu = sched_getcpu();
    if (cpu >= 0)
        return (unsigned)cpu % STRIPES;
    if (thread_stripe == STRIPES)
        thread_stripe = atomic_fetch_add_explicit(&threads_seen, 1,
                                                  memory_order_relaxed) %
                        STRIPES;
    return thread_stripe;
}

/*
 * A slot of @p stripe: the oldest freed one once the quarantine is full,
 * else a fresh one; when @p any_freed (no memory for fresh slots), any
 * freed one. NULL if none. Caller holds the stripe's lock.
 */
static struct refcl_object *stripe_take(enum refcl_type type, size_t size,
                                        unsigned s, bool any_freed)
{
    struct stripe *stripe = &pools[type].stripes[s];
    if (stripe->free_count > QUARANTINE ||
        (any_freed && stripe->free_count)) {
        struct refcl_object *obj = stripe->free_head;
        stripe->free_head = obj->free_next;
        if (--stripe->free_count == 0)
            stripe->free_tail = NULL;
        return obj;
    }
    if (any_freed ||
        (stripe->fresh == stripe->fresh_end && !chunk_take(type, size, s)))
        return NULL;
    return slot_at(type, stripe->fresh++);
}

/* Zeroes @p size bytes of a slot around `state`, which validators may
 * read concurrently. */
static void slot_clear(struct refcl_object *obj, size_t size)
{
    unsigned char *p = (unsigned char *)obj;
    size_t head = offsetof(struct refcl_object, state);
    size_t tail = head + sizeof(obj->state);
    memset(p, 0, head);
    memset(p + tail, 0, size - tail);
}

/* Makes slot @p obj of stripe @p s a live object of @p type. Under the
 * stripe's lock, disp_data included: see refcl_objects_set_disp_data. */
static void slot_init(struct refcl_object *obj, enum refcl_type type,
                      size_t size, unsigned s, struct refcl_object *parent,
                      struct _cl_platform_id *platform,
                      const struct _cl_icd_dispatch *dispatch)
{
    const struct refcl_object *source =
        parent ? parent : (const struct refcl_object *)platform;
    slot_clear(obj, size);
    obj->dispatch = source ? source->dispatch : dispatch;
    obj->disp_data = source ? source->disp_data : NULL;
    obj->platform = platform;
    obj->parent = parent;
    obj->stripe = s;
    atomic_init(&obj->refcount, 1);
    atomic_store_explicit(&obj->state, REFCL_LIVE_TAG(type),
                          memory_order_release);
}

/* Takes a slot from stripe @p s and makes it a live object. */
static struct refcl_object *stripe_alloc(enum refcl_type type, size_t size,
                                         unsigned s, bool any_freed,
                                         struct refcl_object *parent,
                                         struct _cl_platform_id *platform,
                                         const struct _cl_icd_dispatch *dispatch)
{
    struct stripe *stripe = &pools[type].stripes[s];
    pthread_mutex_lock(&stripe->lock);
    struct refcl_object *obj = stripe_take(type, size, s, any_freed);
    if (obj)
        slot_init(obj, type, size, s, parent, platform, dispatch);
    pthread_mutex_unlock(&stripe->lock);
    return obj;
}

/* Out of memory for fresh slots: a quarantined slot of any stripe. */
__attribute__((cold, noinline)) static struct refcl_object *
alloc_any_freed(enum refcl_type type, size_t size, unsigned first,
                struct refcl_object *parent, struct _cl_platform_id *platform,
                const struct _cl_icd_dispatch *dispatch)
{
    struct refcl_object *obj = NULL;
    for (unsigned i = 0; !obj && i < STRIPES; i++)
        obj = stripe_alloc(type, size, (first + i) % STRIPES, true, parent,
                           platform, dispatch);
    return obj;
}

void *refcl_object_alloc_sized(enum refcl_type type, size_t size,
                               struct refcl_object *parent,
                               struct _cl_platform_id *platform,
                               const struct _cl_icd_dispatch *dispatch)
{
    /* Every allocation of a type passes the one size REFCL_OBJECT_LAYOUT
     * declares for it, so the first fixes the slot size for all. */
    pthread_once(&pools_once, pools_init);
    unsigned s = stripe_pick();
    struct refcl_object *obj =
        stripe_alloc(type, size, s, false, parent, platform, dispatch);
    return obj ? obj
               : alloc_any_freed(type, size, s, parent, platform, dispatch);
}

void refcl_object_free(struct refcl_object *obj)
{
    enum refcl_type type =
        (enum refcl_type)(atomic_load_explicit(&obj->state,
                                               memory_order_relaxed) &
                          0xffffu);
    struct stripe *stripe = &pools[type].stripes[obj->stripe];
    atomic_store_explicit(&obj->state, 0, memory_order_release);
    pthread_mutex_lock(&stripe->lock);
    obj->free_next = NULL;
    if (stripe->free_tail)
        stripe->free_tail->free_next = obj;
    else
        stripe->free_head = obj;
    stripe->free_tail = obj;
    stripe->free_count++;
    pthread_mutex_unlock(&stripe->lock);
}

cl_int refcl_invalid_code(enum refcl_type type)
{
    static const cl_int codes[REFCL_TYPE_COUNT] = {
        [REFCL_PLATFORM] = CL_INVALID_PLATFORM,
        [REFCL_DEVICE] = CL_INVALID_DEVICE,
        [REFCL_CONTEXT] = CL_INVALID_CONTEXT,
        [REFCL_QUEUE] = CL_INVALID_COMMAND_QUEUE,
        [REFCL_MEM] = CL_INVALID_MEM_OBJECT,
        [REFCL_PROGRAM] = CL_INVALID_PROGRAM,
        [REFCL_KERNEL] = CL_INVALID_KERNEL,
        [REFCL_EVENT] = CL_INVALID_EVENT,
        [REFCL_SAMPLER] = CL_INVALID_SAMPLER,
    };
    return codes[type];
}

cl_int refcl_invalid_handle(const void *handle, enum refcl_type type)
{
    static const char *const reasons[REFCL_TYPE_COUNT] = {
        [REFCL_PLATFORM] = "not a live cl_platform_id",
        [REFCL_DEVICE] = "not a live cl_device_id",
        [REFCL_CONTEXT] = "not a live cl_context",
        [REFCL_QUEUE] = "not a live cl_command_queue",
        [REFCL_MEM] = "not a live cl_mem",
        [REFCL_PROGRAM] = "not a live cl_program",
        [REFCL_KERNEL] = "not a live cl_kernel",
        [REFCL_EVENT] = "not a live cl_event",
        [REFCL_SAMPLER] = "not a live cl_sampler",
    };
    return refcl_reason_handle(refcl_invalid_code(type), (int)type, handle,
                               reasons[type]);
}

cl_int refcl_handle_retain(void *handle, enum refcl_type type)
{
    if (!refcl_object_valid(handle, type))
        return refcl_invalid_handle(handle, type);
    refcl_object_retain(handle);
    return CL_SUCCESS;
}

cl_int refcl_handle_release(void *handle, enum refcl_type type,
                            void (*destroy)(struct refcl_object *obj))
{
    if (!refcl_object_valid(handle, type))
        return refcl_invalid_handle(handle, type);
    if (refcl_object_release(handle))
        destroy(handle);
    return CL_SUCCESS;
}

/* Sets disp_data of @p platform's live objects in the @p type pool. Every
 * slot handed to a stripe lies in a mapped segment. */
static void pool_set_disp_data(enum refcl_type type,
                               struct _cl_platform_id *platform,
                               void *disp_data)
{
    for (size_t i = 0; i < pools[type].handed; i++) {
        struct refcl_object *obj = slot_at(type, i);
        if (atomic_load_explicit(&obj->state, memory_order_relaxed) ==
                REFCL_LIVE_TAG(type) &&
            obj->platform == platform)
            obj->disp_data = disp_data;
    }
}

/*
 * Pools are walked in type order and every parent's type comes no later
 * than its child's, so a child created during the walk copies from a parent
 * the walk has already updated, or is itself updated when its pool's turn
 * comes (creation holds its stripe's lock, the walk all of the pool's,
 * which also keeps `handed` still: stripes take chunks under their lock).
 * All of them at once, because parent and child may share a type but not a
 * stripe: a child created in a stripe already walked could copy from a
 * parent in one not yet walked.
 */
void refcl_objects_set_disp_data(struct _cl_platform_id *platform,
                                 void *disp_data)
{
    pthread_once(&pools_once, pools_init);
    for (int type = 0; type < REFCL_TYPE_COUNT; type++) {
        struct stripe *stripes = pools[type].stripes;
        for (unsigned s = 0; s < STRIPES; s++)
            pthread_mutex_lock(&stripes[s].lock);
        pool_set_disp_data(type, platform, disp_data);
        for (unsigned s = STRIPES; s-- > 0;)
            pthread_mutex_unlock(&stripes[s].lock);
    }
}

void refcl_objects_teardown(void)
{
    for (int t = 0; t < REFCL_TYPE_COUNT; t++) {
        for (unsigned k = 0; k < REFCL_SEGMENTS; k++) {
            uintptr_t base = atomic_exchange(&refcl_pools[t].base[k], 0);
            size_t bytes = segment_slots(k) * slot_size(t);
            if (!base)
                break;
#ifdef REFCL_LSAN
            __lsan_unregister_root_region((void *)base, bytes);
#endif
            munmap((void *)base, bytes);
        }
        pthread_mutex_destroy(&pools[t].grow_lock);
        for (unsigned s = 0; s < STRIPES; s++)
            pthread_mutex_destroy(&pools[t].stripes[s].lock);
        memset(&pools[t], 0, sizeof(pools[t]));
        refcl_pools[t].slot_size = 0;
    }
}

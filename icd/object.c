/*
 * Object pools: allocation, validation and dispatch-data propagation for
 * every CL object (see include/refcl/object.h for the why).
 *
 * One anonymous mapping, reserved on first use and never moved, holds one
 * pool per object type. Reserving with MAP_NORESERVE costs address space
 * only; pages are committed as slots are first used. Freed slots wait in a
 * FIFO quarantine before reuse, so a just-released handle stays invalid for
 * a while instead of aliasing the next object created.
 *
 * Each pool is cut into stripes, each with its own lock, range of slots and
 * quarantine, so that threads creating and releasing objects on different
 * CPUs do not share a lock or a free list. A thread allocates from the
 * stripe of the CPU it runs on; a slot goes back to the stripe that owns
 * it. Validation does not care: it checks the pool as a whole.
 */
#include "refcl/object.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

/* LeakSanitizer scans globals, stacks and heap, not this mapping: register
 * it, or every malloc'd pointer that only an object holds looks leaked. */
#ifdef REFCL_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define REGION_BYTES (REFCL_POOL_BYTES * REFCL_TYPE_COUNT)
#define STRIPES 8u
#define STRIPE_SLOTS (REFCL_POOL_SLOTS / STRIPES)
/* Freed slots a stripe holds back before reusing the oldest. */
#define QUARANTINE 1024u

/* A stripe of a pool; 64-byte aligned so that no two share a cache line. */
struct stripe {
    _Alignas(64) pthread_mutex_t lock;
    size_t bump;                     /* slots of its range ever used */
    struct refcl_object *free_head;  /* FIFO, linked through `parent` */
    struct refcl_object *free_tail;
    size_t free_count;
};

static pthread_once_t region_once = PTHREAD_ONCE_INIT;
_Atomic uintptr_t refcl_pool_base;
static struct stripe stripes[REFCL_TYPE_COUNT][STRIPES];

static void region_map(void)
{
    void *base = mmap(NULL, REGION_BYTES, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return;
#ifdef REFCL_LSAN
    __lsan_register_root_region(base, REGION_BYTES);
#endif
    for (int t = 0; t < REFCL_TYPE_COUNT; t++)
        for (unsigned s = 0; s < STRIPES; s++)
            pthread_mutex_init(&stripes[t][s].lock, NULL);
    atomic_store_explicit(&refcl_pool_base, (uintptr_t)base,
                          memory_order_release);
}

static uintptr_t pool_base(void)
{
    return atomic_load_explicit(&refcl_pool_base, memory_order_relaxed);
}

/* Slot @p index of stripe @p stripe of the @p type pool. */
static struct refcl_object *slot_at(enum refcl_type type, unsigned stripe,
                                    size_t index)
{
    size_t slot = stripe * STRIPE_SLOTS + index;
    return (struct refcl_object *)(pool_base() + type * REFCL_POOL_BYTES +
                                   slot * REFCL_SLOT_SIZE);
}

/* The stripe that owns @p obj's slot. */
static struct stripe *stripe_of(const struct refcl_object *obj)
{
    uintptr_t offset = (uintptr_t)obj - pool_base();
    size_t type = offset / REFCL_POOL_BYTES;
    size_t slot = offset % REFCL_POOL_BYTES / REFCL_SLOT_SIZE;
    return &stripes[type][slot / STRIPE_SLOTS];
}

/* The stripe this thread allocates from: its CPU's, else one fixed per
 * thread when the CPU cannot be read. */
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
 * A slot of stripe @p s: the oldest freed one once the quarantine is full,
 * else a fresh one; when @p pool_full (no stripe has a fresh slot left),
 * any freed one. NULL if none. Caller holds the stripe's lock.
 */
static struct refcl_object *stripe_take(enum refcl_type type, unsigned s,
                                        bool pool_full)
{
    struct stripe *stripe = &stripes[type][s];
    if (stripe->free_count > QUARANTINE ||
        (pool_full && stripe->free_count)) {
        struct refcl_object *obj = stripe->free_head;
        stripe->free_head = obj->parent;
        if (--stripe->free_count == 0)
            stripe->free_tail = NULL;
        return obj;
    }
    return stripe->bump < STRIPE_SLOTS ? slot_at(type, s, stripe->bump++)
                                       : NULL;
}

/* Zeroes a slot around `state`, which validators may read concurrently. */
static void slot_clear(struct refcl_object *obj)
{
    unsigned char *p = (unsigned char *)obj;
    size_t head = offsetof(struct refcl_object, state);
    size_t tail = head + sizeof(obj->state);
    memset(p, 0, head);
    memset(p + tail, 0, REFCL_SLOT_SIZE - tail);
}

/* Takes a slot from stripe @p s and makes it a live object. Under the
 * stripe lock, disp_data included: see refcl_objects_set_disp_data. */
static struct refcl_object *stripe_alloc(enum refcl_type type, unsigned s,
                                         bool pool_full,
                                         struct refcl_object *parent,
                                         struct _cl_platform_id *platform,
                                         const struct _cl_icd_dispatch *dispatch)
{
    struct stripe *stripe = &stripes[type][s];
    pthread_mutex_lock(&stripe->lock);
    struct refcl_object *obj = stripe_take(type, s, pool_full);
    if (obj) {
        const struct refcl_object *source =
            parent ? parent : (const struct refcl_object *)platform;
        slot_clear(obj);
        obj->dispatch = source ? source->dispatch : dispatch;
        obj->disp_data = source ? source->disp_data : NULL;
        obj->platform = platform;
        obj->parent = parent;
        atomic_init(&obj->refcount, 1);
        atomic_store_explicit(&obj->state, REFCL_LIVE_TAG(type),
                              memory_order_release);
    }
    pthread_mutex_unlock(&stripe->lock);
    return obj;
}

void *refcl_object_alloc(enum refcl_type type, struct refcl_object *parent,
                         struct _cl_platform_id *platform,
                         const struct _cl_icd_dispatch *dispatch)
{
    if (pthread_once(&region_once, region_map) != 0 ||
        !atomic_load_explicit(&refcl_pool_base, memory_order_acquire))
        return NULL;
    /* Other stripes only when this thread's has no slot to give: fresh
     * slots first, so that quarantined ones wait as long as they would in
     * one undivided pool. */
    unsigned first = stripe_pick();
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < STRIPES; i++) {
            struct refcl_object *obj =
                stripe_alloc(type, (first + i) % STRIPES, pass == 1, parent,
                             platform, dispatch);
            if (obj)
                return obj;
        }
    return NULL;
}

void refcl_object_free(struct refcl_object *obj)
{
    struct stripe *stripe = stripe_of(obj);
    atomic_store_explicit(&obj->state, 0, memory_order_release);
    pthread_mutex_lock(&stripe->lock);
    obj->parent = NULL;
    if (stripe->free_tail)
        stripe->free_tail->parent = obj;
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

cl_int refcl_handle_retain(void *handle, enum refcl_type type)
{
    if (!refcl_object_valid(handle, type))
        return refcl_invalid_code(type);
    refcl_object_retain(handle);
    return CL_SUCCESS;
}

cl_int refcl_handle_release(void *handle, enum refcl_type type,
                            void (*destroy)(struct refcl_object *obj))
{
    if (!refcl_object_valid(handle, type))
        return refcl_invalid_code(type);
    if (refcl_object_release(handle))
        destroy(handle);
    return CL_SUCCESS;
}

/* Sets disp_data of @p platform's live objects in the @p type pool. */
static void pool_set_disp_data(enum refcl_type type,
                               struct _cl_platform_id *platform,
                               void *disp_data)
{
    for (unsigned s = 0; s < STRIPES; s++)
        for (size_t i = 0; i < stripes[type][s].bump; i++) {
            struct refcl_object *obj = slot_at(type, s, i);
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
 * comes (creation holds its stripe's lock, the walk all of the pool's). All
 * of them at once, because parent and child may share a type but not a
 * stripe: a child created in a stripe already walked could copy from a
 * parent in one not yet walked.
 */
void refcl_objects_set_disp_data(struct _cl_platform_id *platform,
                                 void *disp_data)
{
    if (!atomic_load_explicit(&refcl_pool_base, memory_order_acquire))
        return;
    for (int type = 0; type < REFCL_TYPE_COUNT; type++) {
        for (unsigned s = 0; s < STRIPES; s++)
            pthread_mutex_lock(&stripes[type][s].lock);
        pool_set_disp_data(type, platform, disp_data);
        for (unsigned s = STRIPES; s-- > 0;)
            pthread_mutex_unlock(&stripes[type][s].lock);
    }
}

void refcl_objects_teardown(void)
{
    uintptr_t base = atomic_exchange(&refcl_pool_base, 0);
    if (!base)
        return;
#ifdef REFCL_LSAN
    __lsan_unregister_root_region((void *)base, REGION_BYTES);
#endif
    munmap((void *)base, REGION_BYTES);
    for (int t = 0; t < REFCL_TYPE_COUNT; t++)
        for (unsigned s = 0; s < STRIPES; s++) {
            pthread_mutex_destroy(&stripes[t][s].lock);
            memset(&stripes[t][s], 0, sizeof(stripes[t][s]));
        }
}

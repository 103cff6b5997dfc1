/*
 * Object pools: allocation, validation and dispatch-data propagation for
 * every CL object (see include/refcl/object.h for the why).
 *
 * One anonymous mapping, reserved on first use and never moved, holds one
 * pool per object type. Reserving with MAP_NORESERVE costs address space
 * only; pages are committed as slots are first used. Freed slots wait in a
 * FIFO quarantine before reuse, so a just-released handle stays invalid for
 * a while instead of aliasing the next object created.
 */
#include "refcl/object.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* LeakSanitizer scans globals, stacks and heap, not this mapping: register
 * it, or every malloc'd pointer that only an object holds looks leaked. */
#ifdef REFCL_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define POOL_SLOTS ((size_t)1 << 18)
#define POOL_BYTES (POOL_SLOTS * REFCL_SLOT_SIZE)
#define QUARANTINE 1024u
#define LIVE_TAG(type) (0x52430000u | (unsigned)(type)) /* "RC" + type */

struct pool {
    pthread_mutex_t lock;
    size_t bump;                     /* slots ever used */
    struct refcl_object *free_head;  /* FIFO, linked through `parent` */
    struct refcl_object *free_tail;
    size_t free_count;
};

static pthread_once_t region_once = PTHREAD_ONCE_INIT;
static _Atomic uintptr_t region_base;
static struct pool pools[REFCL_TYPE_COUNT];

static void region_map(void)
{
    void *base = mmap(NULL, POOL_BYTES * REFCL_TYPE_COUNT,
                      PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return;
#ifdef REFCL_LSAN
    __lsan_register_root_region(base, POOL_BYTES * REFCL_TYPE_COUNT);
#endif
    for (int t = 0; t < REFCL_TYPE_COUNT; t++)
        pthread_mutex_init(&pools[t].lock, NULL);
    atomic_store_explicit(&region_base, (uintptr_t)base, memory_order_release);
}

static unsigned char *slot_at(enum refcl_type type, size_t index)
{
    uintptr_t base = atomic_load_explicit(&region_base, memory_order_relaxed);
    return (unsigned char *)base + type * POOL_BYTES +
           index * REFCL_SLOT_SIZE;
}

/* Caller holds pool->lock. */
static struct refcl_object *pool_take(struct pool *pool, enum refcl_type type)
{
    bool fresh_left = pool->bump < POOL_SLOTS;
    if (pool->free_count > QUARANTINE || (!fresh_left && pool->free_count)) {
        struct refcl_object *obj = pool->free_head;
        pool->free_head = obj->parent;
        if (--pool->free_count == 0)
            pool->free_tail = NULL;
        return obj;
    }
    return fresh_left ? (struct refcl_object *)slot_at(type, pool->bump++)
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

void *refcl_object_alloc(enum refcl_type type, struct refcl_object *parent,
                         struct _cl_platform_id *platform,
                         const struct _cl_icd_dispatch *dispatch)
{
    if (pthread_once(&region_once, region_map) != 0 ||
        !atomic_load_explicit(&region_base, memory_order_acquire))
        return NULL;

    struct pool *pool = &pools[type];
    pthread_mutex_lock(&pool->lock);
    struct refcl_object *obj = pool_take(pool, type);
    if (obj) {
        /* Copied under the pool lock: see refcl_objects_set_disp_data. */
        const struct refcl_object *source =
            parent ? parent : (const struct refcl_object *)platform;
        slot_clear(obj);
        obj->dispatch = source ? source->dispatch : dispatch;
        obj->disp_data = source ? source->disp_data : NULL;
        obj->platform = platform;
        obj->parent = parent;
        atomic_init(&obj->refcount, 1);
        atomic_store_explicit(&obj->state, LIVE_TAG(type),
                              memory_order_release);
    }
    pthread_mutex_unlock(&pool->lock);
    return obj;
}

static enum refcl_type type_of(const struct refcl_object *obj)
{
    uintptr_t base = atomic_load_explicit(&region_base, memory_order_relaxed);
    return (enum refcl_type)(((uintptr_t)obj - base) / POOL_BYTES);
}

void refcl_object_free(struct refcl_object *obj)
{
    struct pool *pool = &pools[type_of(obj)];
    atomic_store_explicit(&obj->state, 0, memory_order_release);
    pthread_mutex_lock(&pool->lock);
    obj->parent = NULL;
    if (pool->free_tail)
        pool->free_tail->parent = obj;
    else
        pool->free_head = obj;
    pool->free_tail = obj;
    pool->free_count++;
    pthread_mutex_unlock(&pool->lock);
}

bool refcl_object_valid(const void *handle, enum refcl_type type)
{
    uintptr_t base = atomic_load_explicit(&region_base, memory_order_acquire);
    uintptr_t offset = (uintptr_t)handle - base - type * POOL_BYTES;
    if (!base || offset >= POOL_BYTES || offset % REFCL_SLOT_SIZE)
        return false;
    const struct refcl_object *obj = handle;
    return atomic_load_explicit(&obj->state, memory_order_acquire) ==
           LIVE_TAG(type);
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

cl_int refcl_object_check(const void *handle, enum refcl_type type)
{
    return refcl_object_valid(handle, type) ? CL_SUCCESS
                                            : refcl_invalid_code(type);
}

/*
 * Pools are walked in type order and every parent's type comes no later
 * than its child's, so a child created during the walk copies from a parent
 * the walk has already updated, or is itself updated when its pool's turn
 * comes (creation and walk both hold the pool lock).
 */
void refcl_objects_set_disp_data(struct _cl_platform_id *platform,
                                 void *disp_data)
{
    if (!atomic_load_explicit(&region_base, memory_order_acquire))
        return;
    for (int type = 0; type < REFCL_TYPE_COUNT; type++) {
        struct pool *pool = &pools[type];
        pthread_mutex_lock(&pool->lock);
        for (size_t i = 0; i < pool->bump; i++) {
            struct refcl_object *obj = (void *)slot_at(type, i);
            if (atomic_load_explicit(&obj->state, memory_order_relaxed) ==
                    LIVE_TAG(type) &&
                obj->platform == platform)
                obj->disp_data = disp_data;
        }
        pthread_mutex_unlock(&pool->lock);
    }
}

void refcl_objects_teardown(void)
{
    uintptr_t base = atomic_exchange(&region_base, 0);
    if (!base)
        return;
#ifdef REFCL_LSAN
    __lsan_unregister_root_region((void *)base, POOL_BYTES * REFCL_TYPE_COUNT);
#endif
    munmap((void *)base, POOL_BYTES * REFCL_TYPE_COUNT);
    for (int t = 0; t < REFCL_TYPE_COUNT; t++) {
        pthread_mutex_destroy(&pools[t].lock);
        memset(&pools[t], 0, sizeof(pools[t]));
    }
}

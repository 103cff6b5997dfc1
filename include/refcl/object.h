/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one header every refcl CL object starts with, and the pools that hand
 * objects out and recognise them again.
 *
 * Layout (cl_khr_icd 1.x and 2.0): the loader reads `dispatch` at offset 0
 * and, for ICD2, `disp_data` right after it. The rest is refcl's own.
 *
 * Validation never trusts a handle: each object type lives in its own pool,
 * a few mappings of equal slots (segments) that refcl maps as the pool grows
 * and never unmaps while loaded. A handle is valid only if it is the start
 * of a slot of a segment of the right pool and that slot's `state` says
 * "live". Only after that check is anything else read through the handle, so
 * NULL, foreign, zeroed or released handles all get CL_INVALID_<TYPE> and
 * never a crash.
 *
 * Slots are sized per type: a pool's slot is its struct's size rounded up
 * to a cache line (64 bytes), so that no type pays for the largest and no
 * two objects share a line. Whatever varies per object (a kernel's
 * arguments) lives on the heap, owned by the object. The other design, a
 * fixed header in the pool and the body elsewhere, costs a second
 * allocation per object and a second cache miss on every call that reads
 * past the header, for no gain in validation, which reads only `state`.
 */
#ifndef REFCL_OBJECT_H
#define REFCL_OBJECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "refcl/compat.h"
#include "refcl/error.h"

/** The CL object types, one pool each. */
enum refcl_type {
    REFCL_PLATFORM,
    REFCL_DEVICE,
    REFCL_CONTEXT,
    REFCL_QUEUE,
    REFCL_MEM,
    REFCL_PROGRAM,
    REFCL_KERNEL,
    REFCL_EVENT,
    REFCL_SAMPLER,
    REFCL_TYPE_COUNT
};

/** Slots are multiples of this: a cache line. */
#define REFCL_SLOT_ALIGN 64u

/** Common header of every CL object. */
struct refcl_object {
    const struct _cl_icd_dispatch *dispatch; /**< ICD1: loader reads this */
    void *disp_data;                         /**< ICD2: set by the loader */
    _Atomic unsigned state;                  /**< type tag while live, else 0 */
    atomic_uint refcount;
    struct refcl_object *parent;             /**< creator, or NULL */
    struct _cl_platform_id *platform;        /**< owning platform */
    unsigned stripe;                         /**< pool stripe of its slot */
    /** Released: the next slot in its stripe's quarantine (core/object.c).
     *  Its own field (56 bytes of header: every slot size stays what it
     *  is with 48), so that a released object's `parent` stays what it
     *  was. */
    struct refcl_object *free_next;
};

_Static_assert(offsetof(struct refcl_object, dispatch) == 0,
               "cl_khr_icd: dispatch must be the first member");
_Static_assert(offsetof(struct refcl_object, disp_data) == sizeof(void *),
               "cl_khr_icd 2.0: disp_data must follow dispatch");

/**
 * Declares @p type_struct the struct of the objects of type @p type_tag
 * (an enum refcl_type constant): asserts that it embeds the header first,
 * and names its size for refcl_object_alloc.
 */
#define REFCL_OBJECT_LAYOUT(type_tag, type_struct)                         \
    _Static_assert(offsetof(type_struct, obj) == 0,                        \
                   #type_struct " must start with struct refcl_object");  \
    enum { REFCL_OBJECT_SIZE_##type_tag = sizeof(type_struct) }

/**
 * Allocates a zeroed object of @p type, @p size bytes, from its pool with
 * refcount 1. The first allocation of a type fixes its pool's slot size
 * (@p size rounded up to REFCL_SLOT_ALIGN): every one of a type passes the
 * same @p size (refcl_object_alloc).
 *
 * The only place that sets dispatch and disp_data: a child copies both from
 * @p parent (if any), else from @p platform; a platform passes itself as
 * neither (both NULL) and gets @p dispatch and a NULL disp_data.
 *
 * @return the object, or NULL when no memory is left for it (or its pool
 * already holds REFCL_SEGMENTS full segments).
 */
void *refcl_object_alloc_sized(enum refcl_type type, size_t size,
                               struct refcl_object *parent,
                               struct _cl_platform_id *platform,
                               const struct _cl_icd_dispatch *dispatch);

/** refcl_object_alloc_sized with the size REFCL_OBJECT_LAYOUT declared for
 *  @p type, which must be the enum constant itself (REFCL_EVENT, ...). */
#define refcl_object_alloc(type, parent, platform, dispatch)               \
    refcl_object_alloc_sized(type, REFCL_OBJECT_SIZE_##type, parent,       \
                             platform, dispatch)

/** Marks @p obj dead and returns its slot to the pool (after a quarantine). */
void refcl_object_free(struct refcl_object *obj);

/** Slots of a pool's first segment; segment k holds this << k. */
#define REFCL_SEGMENT0_SLOTS ((size_t)1 << 16)
/** Segments a pool may have: 2^16 * (2^10 - 1), about 67 million slots of
 *  each type, 16 GiB; mapped only as the live objects need them. */
#define REFCL_SEGMENTS 10u
/** `state` of a live object of @p type: "RC" and the type. */
#define REFCL_LIVE_TAG(type) (0x52430000u | (unsigned)(type))

/**
 * Where each pool's segments are, and its slot size: base[k] is segment
 * k's start, 0 until it is mapped (and after unload); segments are mapped
 * in order, and the slot size is set before segment 0 is published. Owned
 * by core/object.c; visible here so that validation, which every entry
 * point starts with, needs no call. One cache line holds what validation
 * reads for segment 0.
 */
struct refcl_pool_map {
    _Alignas(64) uint64_t segment0_bytes; /**< REFCL_SEGMENT0_SLOTS slots */
    /* A slot's start: its offset in the segment, a multiple of the slot
     * size d = 2^shift * odd (Granlund and Montgomery: n is a multiple of
     * d iff rotr(n * odd^-1 mod 2^64, shift) <= (2^64 - 1) / d), so that
     * the check is a multiply and no division. */
    uint64_t odd_inverse;    /**< odd^-1 modulo 2^64 */
    uint64_t most_slots;     /**< (2^64 - 1) / d */
    unsigned shift;          /**< 6 or more: d is a multiple of 64 */
    uint32_t slot_size;      /**< d, 0 before the first allocation */
    _Atomic uintptr_t base[REFCL_SEGMENTS];
};
extern struct refcl_pool_map refcl_pools[REFCL_TYPE_COUNT]
    __attribute__((visibility("hidden")));

/** True if @p offset, from a segment's start, is a multiple of the slot
 *  size of @p pool: the start of a slot. */
static inline bool refcl_slot_start(const struct refcl_pool_map *pool,
                                    uint64_t offset)
{
    uint64_t q = offset * pool->odd_inverse;
    q = q >> pool->shift | q << (64 - pool->shift);
    return q <= pool->most_slots;
}

/** True if @p obj, a slot of a mapped segment, holds a live @p type. */
static inline bool refcl_slot_live(const struct refcl_object *obj,
                                   enum refcl_type type)
{
    return atomic_load_explicit(&obj->state, memory_order_acquire) ==
           REFCL_LIVE_TAG(type);
}

/** True if @p handle is a live object of @p type handed out by refcl.
 *  Inline, and cheapest for the first segment, which holds every object of
 *  most programs; no call, so that the entry points that start with it
 *  need no stack frame. */
static inline bool refcl_object_valid(const void *handle,
                                      enum refcl_type type)
{
    const struct refcl_pool_map *pool = &refcl_pools[type];
    uintptr_t base = atomic_load_explicit(&pool->base[0],
                                          memory_order_acquire);
    uintptr_t offset = (uintptr_t)handle - base;
    if (!base)
        return false;
    if (__builtin_expect(offset >= pool->segment0_bytes, 0)) {
        unsigned k = 1;
        for (;; k++) {
            if (k == REFCL_SEGMENTS)
                return false;
            base = atomic_load_explicit(&pool->base[k], memory_order_acquire);
            offset = (uintptr_t)handle - base;
            if (!base)
                return false;
            if (offset < pool->segment0_bytes << k)
                break;
        }
    }
    return refcl_slot_start(pool, offset) && refcl_slot_live(handle, type);
}

/** The spec's CL_INVALID_<TYPE> code for @p type. */
cl_int refcl_invalid_code(enum refcl_type type) __attribute__((cold));

/** refcl_invalid_code for @p handle, which is not a live @p type, with the
 *  reason ("not a live cl_context") when reasons are on (refcl/error.h). */
cl_int refcl_invalid_handle(const void *handle, enum refcl_type type)
    __attribute__((cold));

/** CL_SUCCESS if valid, else the spec's CL_INVALID_<TYPE> for @p type. */
static inline cl_int refcl_object_check(const void *handle,
                                        enum refcl_type type)
{
    return refcl_object_valid(handle, type)
               ? CL_SUCCESS
               : refcl_invalid_handle(handle, type);
}

/**
 * clRetain<Object>: the spec's CL_INVALID_<TYPE> unless @p handle is a live
 * object of @p type, else one more reference.
 */
cl_int refcl_handle_retain(void *handle, enum refcl_type type);

/**
 * clRelease<Object>: the spec's CL_INVALID_<TYPE> unless @p handle is a
 * live object of @p type, else one reference less, @p destroy called when
 * it was the last.
 */
cl_int refcl_handle_release(void *handle, enum refcl_type type,
                            void (*destroy)(struct refcl_object *obj));

/** The header of the object @p handle points to, whatever its type: every
 *  object starts with it (REFCL_OBJECT_LAYOUT), so a layer can hold an
 *  object of a layer above without knowing its struct. */
static inline struct refcl_object *refcl_header(void *handle)
{
    return handle;
}

/** Increments the reference count (relaxed: the caller holds a reference). */
static inline void refcl_object_retain(struct refcl_object *obj)
{
    atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
}

/** Decrements the reference count; true when this was the last reference. */
static inline bool refcl_object_release(struct refcl_object *obj)
{
    return atomic_fetch_sub_explicit(&obj->refcount, 1,
                                     memory_order_acq_rel) == 1;
}

static inline cl_uint refcl_object_refcount(const struct refcl_object *obj)
{
    return atomic_load_explicit(&obj->refcount, memory_order_relaxed);
}

/**
 * Sets disp_data of every live object of @p platform, the platform included
 * (clIcdSetPlatformDispatchDataKHR). Objects created concurrently see either
 * this walk or the new value through their parent.
 */
void refcl_objects_set_disp_data(struct _cl_platform_id *platform,
                                 void *disp_data);

/** Unmaps every pool segment (library unload). */
void refcl_objects_teardown(void);

#endif /* REFCL_OBJECT_H */

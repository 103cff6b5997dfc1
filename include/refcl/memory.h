/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl's memory objects: buffers, sub-buffers and imported memory
 * (cl_arm_import_memory). On a CPU device the device memory is host
 * memory, so every memory object is a range of the process's address space:
 * its own allocation, the application's memory (CL_MEM_USE_HOST_PTR, host
 * imports), a mapping of a dma_buf, or a region of its parent buffer. Maps
 * hand out pointers into that range; nothing is ever copied behind the
 * application's back.
 */
#ifndef REFCL_MEMORY_H
#define REFCL_MEMORY_H

#include <pthread.h>
#include <stdbool.h>

#include "refcl/device.h"
#include "refcl/object.h"

/** Where a memory object's bytes live, and so what destroying it frees. */
enum refcl_mem_storage {
    REFCL_STORAGE_OWNED,   /**< refcl's allocation (refcl_storage_alloc) */
    REFCL_STORAGE_HOST,    /**< CL_MEM_USE_HOST_PTR: the application's */
    REFCL_STORAGE_PARENT,  /**< a sub-buffer: a region of its parent's */
    REFCL_STORAGE_IMPORT,  /**< clImportMemoryARM of host memory */
    REFCL_STORAGE_DMA_BUF, /**< clImportMemoryARM of a dma_buf: refcl's
                                mapping of it, unmapped at destruction */
};

struct refcl_mem_destructor; /* one clSetMemObjectDestructorCallback */
struct _cl_command_queue;
struct refcl_image;          /* an image's format and shape (refcl/image.h) */
struct refcl_mapping;        /* one clEnqueueMapBuffer not yet unmapped */

struct _cl_mem {
    struct refcl_object obj;        /**< obj.parent: the context */
    struct _cl_context *context;    /**< retained */
    /** The memory object whose bytes this one shares (retained: it outlives
     *  this one): a sub-buffer's buffer, an image's buffer or image
     *  (CL_MEM_ASSOCIATED_MEMOBJECT); else NULL. */
    struct _cl_mem *parent;
    /** CL_MEM_TYPE: CL_MEM_OBJECT_BUFFER, or an image's type. */
    cl_mem_object_type type;
    /** An image's format and shape (image/, one allocation freed with the
     *  object), else NULL. */
    struct refcl_image *image;
    /** Host address of byte 0 (refcl_mem_address). NULL for refcl's own
     *  storage until a command first needs it, and for a sub-buffer of
     *  such a buffer until then. */
    char *_Atomic address;
    size_t size;                    /**< CL_MEM_SIZE, never 0 */
    size_t origin;                  /**< CL_MEM_OFFSET in the parent */
    cl_mem_flags flags;             /**< CL_MEM_FLAGS */
    void *host_ptr;                 /**< CL_MEM_HOST_PTR */
    enum refcl_mem_storage storage;
    bool uses_svm_pointer;          /**< CL_MEM_USES_SVM_POINTER */
    /** The bytes may be read but not written (an import of read-only
     *  pages or of a read-only dma_buf): every command that would write
     *  them is CL_INVALID_OPERATION, kernels included. */
    bool read_only_bytes;
    /** The mapping of a DMA_BUF import, unmapped with the object. */
    void *allocation;
    size_t allocation_size;
    /** CL_MEM_PROPERTIES as given, 0 included; NULL (size 0) if none. */
    cl_mem_properties *properties;
    size_t properties_len;
    /** Destructor callbacks, most recent first (lock-free push). */
    struct refcl_mem_destructor *_Atomic destructors;
    atomic_uint map_count;          /**< CL_MEM_MAP_COUNT */
    /** Mappings of this buffer and of all its sub-buffers, in the buffer's
     *  coordinates: kept by the buffer that owns the bytes (a sub-buffer's
     *  parent), guarded by its map_lock. */
    pthread_mutex_t map_lock;
    struct refcl_mapping *mappings;
    /** Host imports of the context, linked for the page checks of
     *  memory/import.c (guarded by its lock). */
    struct _cl_mem *next_import;
};
REFCL_OBJECT_LAYOUT(REFCL_MEM, struct _cl_mem);

/** Allocates the storage behind @p mem (refcl_mem_address's slow path). */
void *refcl_mem_materialize(struct _cl_mem *mem);

/**
 * The host address of @p mem's first byte: a sub-buffer's origin inside its
 * parent, a CL_MEM_USE_HOST_PTR buffer's host_ptr. Valid while the object
 * lives (kernels, native kernels and every command use it directly).
 *
 * refcl allocates a buffer's own storage when the first command (or
 * kernel argument) needs it: a buffer never used costs nothing. So the
 * first call may allocate, and returns NULL when there is no memory for
 * the bytes; the caller reports CL_MEM_OBJECT_ALLOCATION_FAILURE ("if
 * there is a failure to allocate memory for the data store associated with
 * buffer"). Thread-safe.
 */
static inline void *refcl_mem_address(struct _cl_mem *mem)
{
    char *address = atomic_load_explicit(&mem->address, memory_order_acquire);
    return address ? address : refcl_mem_materialize(mem);
}

/** CL_MEM_SIZE of @p mem: the bytes from refcl_mem_address on. */
static inline size_t refcl_mem_size(const struct _cl_mem *mem)
{
    return mem->size;
}

/** The memory object that owns @p mem's bytes: the last of its parents
 *  (an image over a sub-buffer has two), or @p mem itself. */
static inline struct _cl_mem *refcl_mem_root(struct _cl_mem *mem)
{
    while (mem->parent)
        mem = mem->parent;
    return mem;
}

/** Where @p mem's bytes start in those of refcl_mem_root(@p mem). */
static inline size_t refcl_mem_root_offset(const struct _cl_mem *mem)
{
    size_t offset = 0;
    for (; mem->parent; mem = mem->parent)
        offset += mem->origin;
    return offset;
}

/** One more reference, for a command that uses @p mem (the caller holds
 *  one). */
static inline void refcl_mem_retain(struct _cl_mem *mem)
{
    refcl_object_retain(&mem->obj);
}

/**
 * One reference less; the last one destroys @p mem: its destructor
 * callbacks run (most recent first) on this thread, then its bytes and its
 * references (parent, context) go. No lock held.
 */
void refcl_mem_release(struct _cl_mem *mem);

/**
 * CL_INVALID_MEM_OBJECT unless @p mem is a live memory object, then
 * CL_INVALID_CONTEXT unless it belongs to @p context: the first checks of
 * every command that takes a memory object.
 */
cl_int refcl_mem_check(const struct _cl_mem *mem,
                       const struct _cl_context *context);

/** True if @p mem (live) is a buffer: not an image. */
static inline bool refcl_mem_is_buffer(const struct _cl_mem *mem)
{
    return mem->type == CL_MEM_OBJECT_BUFFER;
}

/** CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object": @p mem
 *  (live) is an image. */
static inline cl_int refcl_mem_not_buffer(void)
{
    return REFCL_FAIL(CL_INVALID_MEM_OBJECT, "an image where a buffer is "
                      "asked for: \"if buffer is not a valid buffer "
                      "object\"");
}

/**
 * Allocates @p size bytes aligned to @p alignment (a power of two, at most
 * a page), zeroed, apart from the host's heap (memory/storage.c). Sizes
 * from REFCL_STORAGE_MAP_MIN up are mapped directly, untouched until used:
 * they cost no memory until written.
 * @return the bytes, or NULL when there is no memory for them.
 */
void *refcl_storage_alloc(size_t size, size_t alignment);

/** Gives back what refcl_storage_alloc(@p size, ...) returned. */
void refcl_storage_free(void *bytes, size_t size);

/** Unmaps the chunks of small storage: library unload. */
void refcl_storage_teardown(void);

/** Sizes refcl_storage_alloc maps directly (and never touches). */
#define REFCL_STORAGE_MAP_MIN ((size_t)64 * 1024)

/** x86-64's and arm64's (4 KiB granule) transparent huge page. */
#define REFCL_STORAGE_HUGE_PAGE ((size_t)2 * 1024 * 1024)

/** Sizes refcl_storage_alloc maps in huge pages where it can: where one
 *  page in two (at most) left untouched is cheap next to the whole. */
#define REFCL_STORAGE_HUGE_MIN ((size_t)4 * 1024 * 1024)

/**
 * The properties of a buffer or image creation: NULL, or a list that is
 * only its terminating 0 (*@p len then 1, else 0); CL_INVALID_PROPERTY for
 * any name, refcl supporting none.
 */
cl_int refcl_mem_properties_parse(const cl_mem_properties *properties,
                                  size_t *len);

/** The memory-flags bits refcl accepts at buffer creation. */
#define REFCL_MEM_ACCESS_FLAGS \
    (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define REFCL_MEM_HOST_ACCESS_FLAGS \
    (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define REFCL_MEM_HOST_PTR_FLAGS \
    (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

/**
 * The memory-flags table's rules for @p flags: only bits of @p allowed, at
 * most one access flag, one host-access flag, and neither USE_HOST_PTR
 * together with ALLOC_HOST_PTR or COPY_HOST_PTR.
 */
bool refcl_mem_flags_valid(cl_mem_flags flags, cl_mem_flags allowed);

/** What a host command does to a buffer, for the host-access flags. */
enum refcl_host_access { REFCL_HOST_READS = 1, REFCL_HOST_WRITES = 2 };

/**
 * CL_INVALID_OPERATION when @p mem's host-access flags forbid @p access:
 * reads of a CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS object, writes
 * to a CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS one; else CL_SUCCESS.
 */
static inline cl_int refcl_mem_host_access(const struct _cl_mem *mem,
                                           unsigned access)
{
    cl_mem_flags f = mem->flags;
    bool no_reads = f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
    bool no_writes = f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    if ((access & REFCL_HOST_READS) && no_reads)
        return REFCL_FAIL(CL_INVALID_OPERATION, "a read of a buffer created "
                          "with CL_MEM_HOST_WRITE_ONLY or "
                          "CL_MEM_HOST_NO_ACCESS");
    if ((access & REFCL_HOST_WRITES) && no_writes)
        return REFCL_FAIL(CL_INVALID_OPERATION, "a write to a buffer created "
                          "with CL_MEM_HOST_READ_ONLY or "
                          "CL_MEM_HOST_NO_ACCESS");
    return CL_SUCCESS;
}

/** CL_MEM_OBJECT_ALLOCATION_FAILURE "if there is a failure to allocate
 *  memory for data store associated with" a buffer: its storage, allocated
 *  when first used, could not be. */
static inline cl_int refcl_mem_store_failed(void)
{
    return REFCL_FAIL(CL_MEM_OBJECT_ALLOCATION_FAILURE, "\"if there is a "
                      "failure to allocate memory for data store associated "
                      "with buffer\"");
}

/**
 * CL_INVALID_OPERATION when @p mem's bytes are read-only (read_only_bytes),
 * for a command that writes them whatever the flags say (copies and fills
 * ignore "the usage information"); else CL_SUCCESS.
 */
static inline cl_int refcl_mem_writable(const struct _cl_mem *mem)
{
    return mem->read_only_bytes
               ? REFCL_FAIL(CL_INVALID_OPERATION, "a write to read-only "
                            "imported memory")
               : CL_SUCCESS;
}

/**
 * Creates a memory object of @p context over @p size bytes at @p address
 * (NULL: not allocated yet), stored as @p storage (for
 * REFCL_STORAGE_PARENT, @p parent is retained),
 * with refcount 1 and no properties. The caller fills in what else applies
 * (host_ptr, allocation, ...).
 * @return the object, or NULL when out of memory.
 */
struct _cl_mem *refcl_mem_create(struct _cl_context *context,
                                 struct _cl_mem *parent, cl_mem_flags flags,
                                 enum refcl_mem_storage storage,
                                 void *address, size_t size);

/**
 * Is [@p offset, @p offset + @p size) inside an object of @p bound bytes,
 * without overflow?
 */
static inline bool refcl_range_inside(size_t offset, size_t size,
                                      size_t bound)
{
    return offset <= bound && size <= bound - offset;
}

/**
 * The SVM allocation of @p context holding [@p ptr, @p ptr + @p size), if
 * any: its start in *@p base and its size in *@p bytes (memory/svm.c).
 * @p size 0 asks only whether @p ptr lies in one.
 * @return true if there is one.
 */
bool refcl_svm_find(const struct _cl_context *context, const void *ptr,
                    size_t size, void **base, size_t *bytes);

/** Frees every SVM allocation still there (library unload). */
void refcl_svm_teardown(void);

/**
 * CL_INVALID_VALUE "if values specified in map_flags are not valid", then
 * CL_INVALID_OPERATION where @p mem's host-access flags forbid the map
 * (memory/map.c).
 */
cl_int refcl_map_flags_check(const struct _cl_mem *mem, cl_map_flags flags);

/**
 * The map command of every memory object, its arguments checked: records
 * the mapping of @p size bytes from @p offset of @p mem's bytes (for an
 * image, from its region's first texel to its last) and enqueues a command
 * of @p type. @return the pointer to byte @p offset, or NULL with
 * *@p errcode_ret set.
 */
void *refcl_map_enqueue(struct _cl_command_queue *queue, struct _cl_mem *mem,
                        cl_command_type type, cl_bool blocking,
                        cl_map_flags map_flags, size_t offset, size_t size,
                        cl_uint num_events, const cl_event *wait_list,
                        cl_event *event, cl_int *errcode_ret);

/** Frees the mappings of @p mem still recorded in its owning buffer
 *  (memory/map.c): an object destroyed while mapped. */
void refcl_mappings_drop(struct _cl_mem *mem);

/**
 * Forgets the host import @p mem (memory/import.c), whose pages may now be
 * imported with other flags.
 */
void refcl_import_forget(struct _cl_mem *mem);

#endif /* REFCL_MEMORY_H */

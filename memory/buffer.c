/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Buffers: clCreateBuffer, clCreateBufferWithProperties, retain/release,
 * clSetMemObjectDestructorCallback, and what every memory object shares:
 * its creation, its storage, its destruction.
 *
 * A buffer's bytes are refcl's own allocation, aligned to
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN, or with CL_MEM_USE_HOST_PTR the
 * application's memory itself. Large allocations are mapped and left
 * untouched: a buffer costs memory only once it is written (from 4 MiB on,
 * in 2 MiB pages).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/memory.h"

struct refcl_mem_destructor {
    void(CL_CALLBACK *fn)(cl_mem memobj, void *user_data);
    void *user_data;
    struct refcl_mem_destructor *next;
};

/* ---- flags ------------------------------------------------------------ */

/* At most one bit of @p group is set in @p flags. */
static bool at_most_one(cl_mem_flags flags, cl_mem_flags group)
{
    cl_mem_flags set = flags & group;
    return (set & (set - 1)) == 0;
}

/* The memory-flags table: "CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY and
 * CL_MEM_READ_ONLY are mutually exclusive", "CL_MEM_ALLOC_HOST_PTR and
 * CL_MEM_USE_HOST_PTR are mutually exclusive", "CL_MEM_COPY_HOST_PTR and
 * CL_MEM_USE_HOST_PTR are mutually exclusive", "CL_MEM_HOST_WRITE_ONLY or
 * CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are mutually exclusive". */
bool refcl_mem_flags_valid(cl_mem_flags flags, cl_mem_flags allowed)
{
    return !(flags & ~allowed) &&
           at_most_one(flags, REFCL_MEM_ACCESS_FLAGS) &&
           at_most_one(flags, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR) &&
           at_most_one(flags, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) &&
           at_most_one(flags, REFCL_MEM_HOST_ACCESS_FLAGS);
}

/* ---- every memory object ---------------------------------------------- */

struct _cl_mem *refcl_mem_create(struct _cl_context *context,
                                 struct _cl_mem *parent, cl_mem_flags flags,
                                 enum refcl_mem_storage storage,
                                 void *address, size_t size)
{
    struct _cl_mem *mem = refcl_object_alloc(REFCL_MEM, &context->obj,
                                             context->obj.platform, NULL);
    if (!mem)
        return NULL;
    refcl_object_retain(&context->obj);
    mem->context = context;
    if (parent) {
        refcl_mem_retain(parent);
        mem->parent = parent;
    }
    mem->type = CL_MEM_OBJECT_BUFFER;
    mem->flags = flags;
    mem->storage = storage;
    atomic_init(&mem->address, address);
    mem->size = size;
    /* A default mutex: its static initializer costs a store, not a call. */
    mem->map_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    return mem;
}

/* Gives back @p mem's bytes, if refcl allocated or mapped them. */
static void storage_release(struct _cl_mem *mem)
{
    switch (mem->storage) {
    case REFCL_STORAGE_OWNED:
        if (mem->address) /* ever used */
            refcl_storage_free(mem->address, mem->size);
        break;
    case REFCL_STORAGE_DMA_BUF:
        munmap(mem->allocation, mem->allocation_size);
        break;
    case REFCL_STORAGE_IMPORT:
        refcl_import_forget(mem);
        break;
    case REFCL_STORAGE_HOST:
    case REFCL_STORAGE_PARENT:
        break;
    }
}

static void mem_destroy(struct _cl_mem *mem)
{
    /* "The registered callback functions are called in the reverse order
     * in which they were registered. The registered callback functions are
     * called and then the memory object's resources are freed." */
    struct refcl_mem_destructor *d = atomic_load(&mem->destructors);
    while (d) {
        struct refcl_mem_destructor *next = d->next;
        d->fn(mem, d->user_data);
        free(d);
        d = next;
    }
    struct _cl_context *context = mem->context;
    struct _cl_mem *parent = mem->parent;
    /* Mappings the application never unmapped go with the object. */
    refcl_mappings_drop(mem);
    storage_release(mem);
    free(mem->image);
    free(mem->properties);
    pthread_mutex_destroy(&mem->map_lock);
    refcl_object_free(&mem->obj);
    /* "If memobj is a buffer object, memobj cannot be deleted until all
     * sub-buffer objects associated with memobj are deleted." */
    if (parent)
        refcl_mem_release(parent);
    refcl_context_release(context);
}

void refcl_mem_release(struct _cl_mem *mem)
{
    if (refcl_object_release(&mem->obj))
        mem_destroy(mem);
}

static void mem_destroy_object(struct refcl_object *obj)
{
    mem_destroy((struct _cl_mem *)obj);
}

void *refcl_mem_materialize(struct _cl_mem *mem)
{
    struct _cl_mem *root = refcl_mem_root(mem);
    char *base = atomic_load_explicit(&root->address, memory_order_acquire);
    if (!base) {
        /* Threads racing here allocate one each; the first to install its
         * storage wins, the others give theirs back. */
        char *fresh = refcl_storage_alloc(root->size, REFCL_MEM_BASE_ALIGN);
        if (!fresh)
            return NULL;
        base = NULL;
        if (atomic_compare_exchange_strong_explicit(
                &root->address, &base, fresh, memory_order_acq_rel,
                memory_order_acquire))
            base = fresh;
        else
            refcl_storage_free(fresh, root->size);
    }
    if (mem == root)
        return base;
    char *address = base + refcl_mem_root_offset(mem);
    atomic_store_explicit(&mem->address, address, memory_order_release);
    return address;
}

cl_int refcl_mem_check(const struct _cl_mem *mem,
                       const struct _cl_context *context)
{
    if (!refcl_object_valid(mem, REFCL_MEM))
        return refcl_invalid_handle(mem, REFCL_MEM);
    return mem->context == context
               ? CL_SUCCESS
               : REFCL_FAIL(CL_INVALID_CONTEXT, "\"if the context associated "
                            "with command_queue and the memory object are "
                            "not the same\"");
}

/* ---- clCreateBuffer --------------------------------------------------- */

/* Creation's arguments. */
struct buffer_request {
    struct _cl_context *context;
    const cl_mem_properties *properties;
    size_t properties_len; /* entries, 0 included; 0 for NULL */
    cl_mem_flags flags;
    size_t size;
    void *host_ptr;
    bool uses_svm_pointer;
};

/* CL_INVALID_PROPERTY "if a property name in properties is not a
 * supported property name": "OpenCL does not define any optional
 * properties for buffers" (nor for images), and refcl supports no
 * extension that does. */
cl_int refcl_mem_properties_parse(const cl_mem_properties *properties,
                                  size_t *len)
{
    *len = 0;
    if (!properties)
        return CL_SUCCESS;
    if (properties[0] != 0)
        return REFCL_FAIL(CL_INVALID_PROPERTY, "property 0x%llX: \"if a "
                          "property name in properties is not a supported "
                          "property name\"",
                          (unsigned long long)properties[0]);
    *len = 1;
    return CL_SUCCESS;
}

/* The checks of clCreateBuffer[WithProperties], in the spec's order. */
static cl_int request_check(struct buffer_request *req)
{
    cl_int status =
        refcl_mem_properties_parse(req->properties, &req->properties_len);
    if (status != CL_SUCCESS)
        return status;
    /* CL_INVALID_VALUE "if values specified in flags are not valid as
     * defined in the Memory Flags table" (CL_MEM_KERNEL_READ_AND_WRITE is
     * "only used by clGetSupportedImageFormats"). */
    if (!refcl_mem_flags_valid(req->flags, REFCL_MEM_ACCESS_FLAGS |
                                               REFCL_MEM_HOST_ACCESS_FLAGS |
                                               REFCL_MEM_HOST_PTR_FLAGS))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if values "
                          "specified in flags are not valid\"",
                          (unsigned long long)req->flags);
    if (req->size == 0)
        return REFCL_FAIL(CL_INVALID_BUFFER_SIZE,
                          "size 0: \"if size is zero\"");
    if (req->size > refcl_max_mem_alloc_size())
        return REFCL_FAIL(CL_INVALID_BUFFER_SIZE, "size %zu: \"if size is "
                          "greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE\" (%llu)",
                          req->size,
                          (unsigned long long)refcl_max_mem_alloc_size());
    /* CL_INVALID_HOST_PTR "if host_ptr is NULL, and CL_MEM_USE_HOST_PTR or
     * CL_MEM_COPY_HOST_PTR are set in flags", "if host_ptr is not NULL but
     * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags". */
    bool wants_ptr = req->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (wants_ptr && !req->host_ptr)
        return REFCL_FAIL(CL_INVALID_HOST_PTR, "host_ptr NULL: \"if host_ptr "
                          "is NULL, and CL_MEM_USE_HOST_PTR or "
                          "CL_MEM_COPY_HOST_PTR are set in flags\"");
    if (!wants_ptr && req->host_ptr)
        return REFCL_FAIL(CL_INVALID_HOST_PTR, "\"if host_ptr is not NULL but "
                          "CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are "
                          "not set in flags\"");
    /* CL_INVALID_BUFFER_SIZE "if CL_MEM_USE_HOST_PTR or
     * CL_MEM_COPY_HOST_PTR is set in flags, and host_ptr is a pointer
     * returned by clSVMAlloc, and size is greater than the size passed to
     * clSVMAlloc": within an allocation, past its end. */
    void *base;
    size_t bytes;
    if (wants_ptr &&
        refcl_svm_find(req->context, req->host_ptr, 0, &base, &bytes)) {
        size_t offset = (size_t)((char *)req->host_ptr - (char *)base);
        if (!refcl_range_inside(offset, req->size, bytes))
            return REFCL_FAIL(CL_INVALID_BUFFER_SIZE, "size %zu at offset "
                              "%zu of %zu SVM bytes: \"size is greater than "
                              "the size passed to clSVMAlloc\"",
                              req->size, offset, bytes);
        req->uses_svm_pointer = req->flags & CL_MEM_USE_HOST_PTR;
    }
    return CL_SUCCESS;
}

/* The buffer of a valid @p req: over the application's memory, or over
 * storage of its own, allocated when first used, or now for
 * CL_MEM_COPY_HOST_PTR: "The implementation will copy the memory
 * immediately and host_ptr is available for reuse by the application when
 * the clCreateBuffer ... operation returns." */
static struct _cl_mem *buffer_create(const struct buffer_request *req,
                                     cl_int *err)
{
    bool use = req->flags & CL_MEM_USE_HOST_PTR;
    size_t props_bytes = req->properties_len * sizeof(cl_mem_properties);
    cl_mem_properties *properties = props_bytes ? malloc(props_bytes) : NULL;
    struct _cl_mem *mem = NULL;
    if (!props_bytes || properties)
        mem = refcl_mem_create(req->context, NULL, req->flags,
                               use ? REFCL_STORAGE_HOST : REFCL_STORAGE_OWNED,
                               use ? req->host_ptr : NULL, req->size);
    if (!mem) {
        free(properties);
        *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the buffer "
                          "object");
        return NULL;
    }
    if (props_bytes)
        memcpy(properties, req->properties, props_bytes);
    mem->properties = properties;
    mem->properties_len = req->properties_len;
    mem->host_ptr = use ? req->host_ptr : NULL;
    mem->uses_svm_pointer = req->uses_svm_pointer;
    if (req->flags & CL_MEM_COPY_HOST_PTR) {
        void *bytes = refcl_mem_address(mem);
        if (!bytes) {
            mem_destroy(mem);
            *err = REFCL_FAIL(CL_MEM_OBJECT_ALLOCATION_FAILURE, "\"if there "
                              "is a failure to allocate memory for buffer "
                              "object\" (%zu bytes)", req->size);
            return NULL;
        }
        memcpy(bytes, req->host_ptr, req->size);
    }
    *err = CL_SUCCESS;
    return mem;
}

cl_mem CL_API_CALL refcl_clCreateBufferWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret)
{
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    struct buffer_request req = {context, properties, 0, flags, size,
                                 host_ptr, false};
    cl_int err = request_check(&req);
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    struct _cl_mem *mem = buffer_create(&req, &err);
    return refcl_errcode(mem, err, errcode_ret);
}

cl_mem CL_API_CALL refcl_clCreateBuffer(cl_context context, cl_mem_flags flags,
                                        size_t size, void *host_ptr,
                                        cl_int *errcode_ret)
{
    return refcl_clCreateBufferWithProperties(context, NULL, flags, size,
                                              host_ptr, errcode_ret);
}

/* ---- lifetime --------------------------------------------------------- */

/* CL_INVALID_MEM_OBJECT "if memobj is not a valid memory object". */
cl_int CL_API_CALL refcl_clRetainMemObject(cl_mem memobj)
{
    return refcl_handle_retain(memobj, REFCL_MEM);
}

/* "After the memobj reference count becomes zero and commands queued for
 * execution on a command-queue(s) that use memobj have finished, the memory
 * object is deleted": every such command holds a reference of its own. */
cl_int CL_API_CALL refcl_clReleaseMemObject(cl_mem memobj)
{
    return refcl_handle_release(memobj, REFCL_MEM, mem_destroy_object);
}

/* CL_INVALID_MEM_OBJECT "if memobj is not a valid memory object";
 * CL_INVALID_VALUE "if pfn_notify is NULL". */
cl_int CL_API_CALL refcl_clSetMemObjectDestructorCallback(
    cl_mem memobj, void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *data),
    void *user_data)
{
    if (!refcl_object_valid(memobj, REFCL_MEM))
        return refcl_invalid_handle(memobj, REFCL_MEM);
    if (!pfn_notify)
        return REFCL_FAIL(CL_INVALID_VALUE,
                          "pfn_notify NULL: \"if pfn_notify is NULL\"");
    struct refcl_mem_destructor *d = malloc(sizeof(*d));
    if (!d)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                          "no memory for the callback");
    d->fn = pfn_notify;
    d->user_data = user_data;
    /* "Each call ... registers the specified callback function on a
     * destructor callback stack". */
    d->next = atomic_load_explicit(&memobj->destructors, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(
        &memobj->destructors, &d->next, d, memory_order_release,
        memory_order_relaxed))
        ;
    return CL_SUCCESS;
}

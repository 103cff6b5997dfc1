/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clCreateSubBuffer: a region of a buffer, sharing its bytes. A sub-buffer
 * holds a reference on its buffer, which therefore outlives it; there are
 * no sub-buffers of sub-buffers.
 */
#include "refcl/api.h"
#include "refcl/memory.h"

/* The access qualifiers a sub-buffer may not ask for, given its buffer's:
 * CL_INVALID_VALUE "if buffer was created with CL_MEM_WRITE_ONLY and flags
 * specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY", "... with
 * CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
 * CL_MEM_WRITE_ONLY", "... with CL_MEM_HOST_WRITE_ONLY and flags specify
 * CL_MEM_HOST_READ_ONLY", "... with CL_MEM_HOST_READ_ONLY and flags specify
 * CL_MEM_HOST_WRITE_ONLY", "... with CL_MEM_HOST_NO_ACCESS and flags
 * specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY". */
static cl_mem_flags forbidden_flags(cl_mem_flags parent)
{
    cl_mem_flags forbidden = 0;
    if (parent & CL_MEM_WRITE_ONLY)
        forbidden |= CL_MEM_READ_WRITE | CL_MEM_READ_ONLY;
    if (parent & CL_MEM_READ_ONLY)
        forbidden |= CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY;
    if (parent & CL_MEM_HOST_WRITE_ONLY)
        forbidden |= CL_MEM_HOST_READ_ONLY;
    if (parent & CL_MEM_HOST_READ_ONLY)
        forbidden |= CL_MEM_HOST_WRITE_ONLY;
    if (parent & CL_MEM_HOST_NO_ACCESS)
        forbidden |= CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY;
    return forbidden;
}

/* The sub-buffer's CL_MEM_FLAGS: "If the CL_MEM_READ_WRITE,
 * CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values are not specified in flags,
 * they are inherited"; the host pointer flags "are inherited"; host access
 * likewise. */
static cl_mem_flags inherited_flags(cl_mem_flags flags, cl_mem_flags parent)
{
    if (!(flags & REFCL_MEM_ACCESS_FLAGS))
        flags |= parent & REFCL_MEM_ACCESS_FLAGS;
    if (!(flags & REFCL_MEM_HOST_ACCESS_FLAGS))
        flags |= parent & REFCL_MEM_HOST_ACCESS_FLAGS;
    return flags | (parent & REFCL_MEM_HOST_PTR_FLAGS);
}

/* The checks of clCreateSubBuffer past the buffer itself, in the spec's
 * order. */
static cl_int region_check(const struct _cl_mem *buffer, cl_mem_flags flags,
                           cl_buffer_create_type create_type,
                           const cl_buffer_region *region)
{
    /* CL_INVALID_VALUE for flags the table does not allow, the inherited
     * conflicts above, "if flags specifies CL_MEM_USE_HOST_PTR or
     * CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR", "if the value
     * specified in buffer_create_type is not valid", "if
     * buffer_create_info is NULL", "if the region ... is out of bounds in
     * buffer". */
    if (!refcl_mem_flags_valid(flags, REFCL_MEM_ACCESS_FLAGS |
                                          REFCL_MEM_HOST_ACCESS_FLAGS))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"if values "
                          "specified in flags are not valid\"",
                          (unsigned long long)flags);
    if (flags & forbidden_flags(buffer->flags))
        return REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: conflict with the "
                          "buffer's 0x%llX",
                          (unsigned long long)flags,
                          (unsigned long long)buffer->flags);
    if (create_type != CL_BUFFER_CREATE_TYPE_REGION)
        return REFCL_FAIL(CL_INVALID_VALUE, "buffer_create_type 0x%X: \"if "
                          "the value specified in buffer_create_type is not "
                          "valid\"", create_type);
    if (!region)
        return REFCL_FAIL(CL_INVALID_VALUE, "buffer_create_info NULL: \"if "
                          "buffer_create_info is NULL\"");
    if (!refcl_range_inside(region->origin, region->size, buffer->size))
        return REFCL_FAIL(CL_INVALID_VALUE, "origin %zu, size %zu of %zu "
                          "bytes: \"if the region ... is out of bounds in "
                          "buffer\"", region->origin, region->size,
                          buffer->size);
    if (region->size == 0)
        return REFCL_FAIL(CL_INVALID_BUFFER_SIZE, "region size 0: \"if the "
                          "size field of the cl_buffer_region structure ... "
                          "is zero\"");
    /* CL_MISALIGNED_SUB_BUFFER_OFFSET "if there are no devices in context
     * associated with buffer for which the origin field ... is aligned to
     * the CL_DEVICE_MEM_BASE_ADDR_ALIGN value": every refcl device has the
     * same. */
    if (region->origin % REFCL_MEM_BASE_ALIGN)
        return REFCL_FAIL(CL_MISALIGNED_SUB_BUFFER_OFFSET, "origin %zu: not "
                          "a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (%u "
                          "bytes)", region->origin,
                          (unsigned)REFCL_MEM_BASE_ALIGN);
    return CL_SUCCESS;
}

cl_mem CL_API_CALL refcl_clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                           cl_buffer_create_type create_type,
                                           const void *create_info,
                                           cl_int *errcode_ret)
{
    /* CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object", "if
     * buffer is a sub-buffer object". */
    if (!refcl_object_valid(buffer, REFCL_MEM))
        return refcl_errcode(NULL, refcl_invalid_handle(buffer, REFCL_MEM),
                             errcode_ret);
    if (!refcl_mem_is_buffer(buffer))
        return refcl_errcode(NULL, refcl_mem_not_buffer(), errcode_ret);
    if (buffer->parent)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_INVALID_MEM_OBJECT, "\"if buffer "
                                        "is a sub-buffer object\""),
                             errcode_ret);
    const cl_buffer_region *region = create_info;
    cl_int err = region_check(buffer, flags, create_type, region);
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    /* "The buffer object returned references the data store allocated for
     * buffer and points to the region specified by buffer_create_info". */
    char *base = atomic_load_explicit(&buffer->address, memory_order_acquire);
    struct _cl_mem *sub = refcl_mem_create(
        buffer->context, buffer, inherited_flags(flags, buffer->flags),
        REFCL_STORAGE_PARENT, base ? base + region->origin : NULL,
        region->size);
    if (!sub)
        return refcl_errcode(NULL,
                             REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                        "no memory for the sub-buffer"),
                             errcode_ret);
    sub->origin = region->origin;
    /* "If buffer is created with CL_MEM_USE_HOST_PTR, the host_ptr
     * associated with the buffer object returned is host_ptr + origin." */
    if (buffer->host_ptr)
        sub->host_ptr = (char *)buffer->host_ptr + region->origin;
    sub->uses_svm_pointer = buffer->uses_svm_pointer;
    sub->read_only_bytes = buffer->read_only_bytes;
    return refcl_errcode(sub, CL_SUCCESS, errcode_ret);
}

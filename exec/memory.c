/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What kernels ask of memory objects and SVM beyond the memory layer
 * (refcl/memory.h, whose size, address, retain and release they use as
 * they are): the check of a buffer argument, the alignment of a
 * sub-buffer argument, and the SVM allocation a pointer lies in.
 */
#include <stdint.h>

#include "refcl/exec.h"
#include "refcl/memory.h"

/* A buffer argument is a live buffer, not an image. "The memory object
 * must be created with the context associated with the kernel object": one
 * of another context is no valid memory object for it. */
cl_int refcl_kernel_buffer_check(const struct _cl_context *context,
                                 const struct _cl_mem *mem)
{
    if (!refcl_object_valid(mem, REFCL_MEM))
        return refcl_invalid_handle(mem, REFCL_MEM);
    if (!refcl_mem_is_buffer(mem))
        return refcl_mem_not_buffer();
    return mem->context == context
               ? CL_SUCCESS
               : REFCL_FAIL(CL_INVALID_MEM_OBJECT, "\"The memory object "
                            "must be created with the context associated "
                            "with the kernel object\"");
}

bool refcl_kernel_buffer_misaligned(const struct _cl_mem *mem)
{
    return mem->parent && mem->origin % REFCL_MEM_BASE_ALIGN != 0;
}

/* Every refcl device reports coarse- and fine-grain buffer SVM and
 * fine-grain system SVM (device/info.c, docs/memory.md). */
bool refcl_kernel_svm_supported(const struct _cl_context *context)
{
    (void)context;
    return true;
}

size_t refcl_kernel_svm_room(const struct _cl_context *context,
                             const void *ptr)
{
    void *base;
    size_t bytes;
    if (refcl_svm_find(context, ptr, 0, &base, &bytes))
        return bytes - (size_t)((const char *)ptr - (const char *)base);
    /* Fine-grain system SVM: "the host pointer can be passed as a kernel
     * argument" with no allocation refcl knows of; the application answers
     * for its bounds, the address space for the rest. */
    return (size_t)(UINTPTR_MAX - (uintptr_t)ptr);
}

/*
 * What kernels need of memory objects and SVM (refcl/kernel.h), in one
 * place: checking a buffer argument, its size and host address, holding it
 * for a command, and the SVM allocation a pointer lies in.
 *
 * Memory objects are not implemented yet (issue 11): no cl_mem is ever
 * valid and no device supports SVM, so every buffer argument is
 * CL_INVALID_MEM_OBJECT and the functions that take a checked buffer are
 * never reached.
 */
#include <stdlib.h>

#include "refcl/kernel.h"

cl_int refcl_kernel_buffer_check(const struct _cl_context *context,
                                 const struct _cl_mem *mem)
{
    (void)context;
    (void)mem;
    return CL_INVALID_MEM_OBJECT;
}

size_t refcl_kernel_buffer_size(const struct _cl_mem *mem)
{
    (void)mem;
    abort(); /* unreachable: no buffer passes refcl_kernel_buffer_check */
}

void *refcl_kernel_buffer_address(const struct _cl_mem *mem)
{
    (void)mem;
    abort();
}

bool refcl_kernel_buffer_misaligned(const struct _cl_mem *mem)
{
    (void)mem;
    abort();
}

void refcl_kernel_buffer_hold(struct _cl_mem *mem)
{
    (void)mem;
    abort();
}

void refcl_kernel_buffer_put(struct _cl_mem *mem)
{
    (void)mem;
    abort();
}

bool refcl_kernel_svm_supported(const struct _cl_context *context)
{
    (void)context;
    return false;
}

size_t refcl_kernel_svm_room(const struct _cl_context *context,
                             const void *ptr)
{
    (void)context;
    (void)ptr;
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What refcl's libFuzzer targets share (fuzz/): refcl's device and a
 * context of it, made once, and the check that a call returned one of the
 * codes the spec lists for it.
 */
#ifndef REFCL_FUZZ_H
#define REFCL_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h" /* the OpenCL headers as refcl's tests include them */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cl_device_id fuzz_the_device;

static inline cl_device_id fuzz_device(void)
{
    return fuzz_the_device;
}

/* The device (the compiler must be there) and its context. */
static inline cl_context fuzz_context(void)
{
    static cl_context context;
    if (context)
        return context;
    cl_platform_id platform;
    cl_bool compiler = CL_FALSE;
    if (clGetPlatformIDs(1, &platform, NULL) ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &fuzz_the_device,
                       NULL) ||
        clGetDeviceInfo(fuzz_the_device, CL_DEVICE_COMPILER_AVAILABLE,
                        sizeof(compiler), &compiler, NULL) ||
        !compiler) {
        fprintf(stderr, "fuzz: no refcl device with a compiler\n");
        abort();
    }
    context = clCreateContext(NULL, 1, &fuzz_the_device, NULL, NULL, NULL);
    if (!context)
        abort();
    return context;
}

/* Aborts (a finding) unless @p err is one of @p allowed (0-terminated
 * after CL_SUCCESS, which is first). */
static inline void fuzz_expect(cl_int err, const cl_int *allowed,
                               const char *call)
{
    for (size_t i = 0; i == 0 || allowed[i]; i++)
        if (err == allowed[i])
            return;
    fprintf(stderr, "fuzz: %s returned %d\n", call, err);
    abort();
}

#endif /* REFCL_FUZZ_H */

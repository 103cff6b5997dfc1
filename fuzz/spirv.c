/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: SPIR-V that refcl reads itself before the translator
 * does (compiler/spirv.c). An input is a module: clCreateProgramWithIL
 * checks its header; clSetProgramSpecializationConstant is tried for
 * SpecIds 0-7 in each size, its value the input's first bytes; the build
 * specializes the module, rewrites SPIR-V 1.4 for llvm-spirv-15 and scans
 * it for what the translator still cannot read; the rewrite is also run
 * on the input in process (compiler/spirv_lower.c compiled in, checked by
 * fuzz/spirv_check.h).
 * Whatever the words, every call returns one of the codes the spec gives
 * it (a build always ends), and the application lives on.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "spirv_check.h"

static void try_spec_constants(cl_program program, const uint8_t *data,
                               size_t size)
{
    static const size_t sizes[] = {1, 2, 4, 8};
    uint8_t value[8] = {0};
    memcpy(value, data, size < 8 ? size : 8);
    for (cl_uint id = 0; id < 8; id++)
        for (size_t s = 0; s < 4; s++)
            fuzz_expect(clSetProgramSpecializationConstant(program, id,
                                                           sizes[s], value),
                        (const cl_int[]){CL_SUCCESS, CL_INVALID_SPEC_ID,
                                         CL_INVALID_VALUE, 0},
                        "clSetProgramSpecializationConstant");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cl_context context = fuzz_context();
    cl_int err = CL_SUCCESS;
    fuzz_check_lowered(data, size);
    cl_program program = clCreateProgramWithIL(context, data, size, &err);
    fuzz_expect(err, (const cl_int[]){CL_SUCCESS, CL_INVALID_VALUE,
                                      CL_INVALID_OPERATION, 0},
                "clCreateProgramWithIL");
    if (!program)
        return 0;
    try_spec_constants(program, data, size);
    fuzz_expect(clBuildProgram(program, 0, NULL, NULL, NULL, NULL),
                (const cl_int[]){CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE, 0},
                "clBuildProgram");
    clReleaseProgram(program);
    return 0;
}

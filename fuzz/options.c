/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: clBuildProgram's options and source. An input is the
 * options, up to the first newline, then the source. Whatever they are,
 * the call returns (a build always ends) with one of the codes the spec
 * gives it, and the application lives on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cl_context context = fuzz_context();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *source = strchr(text, '\n');
    if (source)
        *source++ = '\0';
    else
        source = text + size;
    const char *sources[] = {source};
    cl_int err = CL_SUCCESS;
    cl_program program =
        clCreateProgramWithSource(context, 1, sources, NULL, &err);
    if (program) {
        err = clBuildProgram(program, 0, NULL, text, NULL, NULL);
        fuzz_expect(err, (const cl_int[]){CL_SUCCESS, CL_INVALID_BUILD_OPTIONS,
                                          CL_BUILD_PROGRAM_FAILURE, 0},
                    "clBuildProgram");
        clReleaseProgram(program);
    }
    free(text);
    return 0;
}

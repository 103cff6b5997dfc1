/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: clCreateProgramWithBinary and the build that loads it.
 * An input whose first byte is 0 is a whole binary as given; any other is
 * a list of (u16 offset, byte) patches applied to the shared object inside
 * a valid binary of this machine (offsets from its start), whose container
 * checksum is then made right again, so that the altered object gets past
 * the container to the ELF check (compiler/elf.c). Whatever it is, the application lives on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static unsigned char *valid;
static size_t valid_size, payload_at, payload_size;

static uint64_t read_le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Where the shared object is in the container (compiler/binary.c's
 * layout: magic, four u32, three length-prefixed strings, u64 size). */
static void payload_find(void)
{
    size_t at = 8 + 4 * 4;
    for (int field = 0; field < 3; field++)
        at += 4 + read_le(valid + at, 4);
    payload_size = read_le(valid + at, 8);
    payload_at = at + 8;
}

static void valid_make(cl_context context)
{
    const char *source = "kernel void k(global int *p) { p[0] = 1; }\n";
    cl_int err;
    cl_program program =
        clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (!program || clBuildProgram(program, 0, NULL, "", NULL, NULL) ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(valid_size),
                         &valid_size, NULL) ||
        !(valid = malloc(valid_size)) ||
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(valid), &valid,
                         NULL)) {
        fprintf(stderr, "fuzz: could not build the valid binary\n");
        abort();
    }
    clReleaseProgram(program);
    payload_find();
}

static unsigned char *patched(const uint8_t *data, size_t size, size_t *out)
{
    unsigned char *bytes = malloc(valid_size);
    if (!bytes)
        return NULL;
    memcpy(bytes, valid, valid_size);
    for (size_t i = 1; i + 3 <= size; i += 3) {
        size_t at = ((size_t)data[i] | (size_t)data[i + 1] << 8) %
                    payload_size;
        bytes[payload_at + at] = data[i + 2];
    }
    test_checksum_fix(bytes, valid_size);
    *out = valid_size;
    return bytes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cl_context context = fuzz_context();
    if (!valid)
        valid_make(context);
    if (!size)
        return 0;
    size_t length = size - 1;
    unsigned char *bytes = data[0] ? patched(data, size, &length) : NULL;
    const unsigned char *binary = data[0] ? bytes : data + 1;
    if (!binary || !length) {
        free(bytes);
        return 0;
    }
    cl_device_id device = fuzz_device();
    cl_int status, err;
    cl_program program = clCreateProgramWithBinary(
        context, 1, &device, &length, &binary, &status, &err);
    fuzz_expect(err, (const cl_int[]){CL_SUCCESS, CL_INVALID_BINARY, 0},
                "clCreateProgramWithBinary");
    if (program) {
        err = clBuildProgram(program, 0, NULL, "", NULL, NULL);
        fuzz_expect(err, (const cl_int[]){CL_SUCCESS, CL_INVALID_BINARY,
                                          CL_BUILD_PROGRAM_FAILURE, 0},
                    "clBuildProgram");
        clReleaseProgram(program);
    }
    free(bytes);
    return 0;
}

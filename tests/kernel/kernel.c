/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/kernel: programs of built-in kernels (clCreateProgramWithBuiltInKernels
 * and what they answer), kernel objects (clCreateKernel,
 * clCreateKernelsInProgram, clCloneKernel, retain/release), their
 * arguments (clSetKernelArg, clSetKernelArgSVMPointer,
 * clSetKernelExecInfo) and queries (clGetKernelInfo, clGetKernelArgInfo,
 * clGetKernelWorkGroupInfo, clGetKernelSubGroupInfo), every error code, and
 * who keeps whom alive: a kernel its program, a program its context.
 *
 * Runs on a synthetic machine of 4 units split in two halves: a context of
 * the root device and the first half; the second half is outside it.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id device, halves[2];
static cl_context context;     /* device and halves[0] */
static cl_context single;      /* device alone */

#define SAXPY "refcl_saxpy_float"
#define ALL_NAMES                                                         \
    "refcl_fill_uchar;refcl_fill_ulong;refcl_iota_uint;refcl_copy_uint;"  \
    "refcl_lookup_uchar;refcl_saxpy_float;refcl_reduce_add_uint;"         \
    "refcl_cpu_id;refcl_args64"

/* ---- helpers ---------------------------------------------------------------- */

static cl_program builtin_program(cl_context c, cl_uint n,
                                  const cl_device_id *devices,
                                  const char *names)
{
    cl_int err = 1;
    cl_program p = clCreateProgramWithBuiltInKernels(c, n, devices, names,
                                                     &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(p != NULL);
    return p;
}

static cl_kernel kernel_of(cl_program p, const char *name)
{
    cl_int err = 1;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return k;
}

static cl_uint program_refs(cl_program p)
{
    cl_uint refs = 0;
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_SUCCESS);
    return refs;
}

static cl_uint kernel_refs(cl_kernel k)
{
    cl_uint refs = 0;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs,
                             NULL),
             CL_SUCCESS);
    return refs;
}

/* A string query of a kernel, both halves of the two-call protocol. */
static const char *kernel_string(cl_kernel k, cl_kernel_info name,
                                 char *buf, size_t room)
{
    size_t size = 0, again = 0;
    CHECK_EQ(clGetKernelInfo(k, name, 0, NULL, &size), CL_SUCCESS);
    CHECK(size >= 1 && size <= room);
    CHECK_EQ(clGetKernelInfo(k, name, size, buf, &again), CL_SUCCESS);
    CHECK_EQ(again, size);
    CHECK_EQ(strlen(buf) + 1, size);
    if (size > 1)
        CHECK_EQ(clGetKernelInfo(k, name, size - 1, buf, NULL),
                 CL_INVALID_VALUE);
    return buf;
}

/* ---- clCreateProgramWithBuiltInKernels -------------------------------------- */

static void check_program_errors(void)
{
    cl_int err = 1;
    cl_device_id both[2] = {device, halves[0]};
#define CREATE(c, n, d, names) clCreateProgramWithBuiltInKernels(c, n, d, names, &err)
    /* CL_INVALID_VALUE "if device_list is NULL or num_devices is zero". */
    CHECK(CREATE(context, 0, both, SAXPY) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(CREATE(context, 1, NULL, SAXPY) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    /* "if kernel_names is NULL or kernel_names contains a kernel name that
     * is not supported by any of the devices in device_list". */
    CHECK(CREATE(context, 2, both, NULL) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    const char *bad_names[] = {"", "copy", ";", SAXPY ";copy",
                               "refcl_saxpy_float2", "REFCL_SAXPY_FLOAT",
                               SAXPY ";;refcl_cpu_id"};
    for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
        err = 1;
        CHECK(CREATE(context, 2, both, bad_names[i]) == NULL);
        CHECK_EQ(err, CL_INVALID_VALUE);
    }
    /* CL_INVALID_DEVICE "if any device in device_list is not in the list
     * of devices associated with context". */
    cl_device_id outside[2] = {device, halves[1]};
    CHECK(CREATE(context, 2, outside, SAXPY) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    cl_device_id not_device[1] = {(cl_device_id)context};
    CHECK(CREATE(context, 1, not_device, SAXPY) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    /* CL_INVALID_CONTEXT "if context is not a valid context". */
    cl_context released = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(clReleaseContext(released), CL_SUCCESS);
    void *bad[6];
    int n = test_bad_handles(bad, released, device, platform);
    for (int i = 0; i < n; i++) {
        err = 1;
        CHECK(CREATE(bad[i], 1, &device, SAXPY) == NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
    }
    CHECK(CREATE(context, 1, &device, "nope") == NULL); /* errcode_ret */
    CHECK(clCreateProgramWithBuiltInKernels(context, 1, &device, "nope",
                                            NULL) == NULL);
#undef CREATE
}

/* A program of built-in kernels is built from the start, for the devices
 * it was created for, and says so. */
static void check_program_answers(void)
{
    /* Spaces around names and a final ';' are allowed; repeats count
     * once, and so do repeated devices. */
    cl_device_id twice[2] = {halves[0], halves[0]};
    cl_program p = builtin_program(
        context, 2, twice, " " SAXPY " ; refcl_fill_uchar;" SAXPY ";");
    cl_uint num_devices = 0;
    cl_device_id devices[2] = {NULL, NULL};
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(num_devices),
                              &num_devices, NULL),
             CL_SUCCESS);
    CHECK_EQ(num_devices, 1);
    size_t size = 0;
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof(devices), devices,
                              &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_device_id));
    CHECK(devices[0] == halves[0]);

    size_t kernels = 0;
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(kernels),
                              &kernels, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(size_t));
    CHECK_EQ(kernels, 2);
    char names[512];
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, strlen(SAXPY ";refcl_fill_uchar") + 1);
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
                              names, NULL),
             CL_SUCCESS);
    CHECK_STR(names, SAXPY ";refcl_fill_uchar");
    cl_bool ctors = CL_TRUE;
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                              sizeof(ctors), &ctors, NULL),
             CL_SUCCESS);
    CHECK_EQ(ctors, CL_FALSE);
    /* "a null string" of source, no IL, no binary. */
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(names), names,
                              &size),
             CL_SUCCESS);
    CHECK_EQ(size, 1);
    CHECK_STR(names, "");
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size), CL_SUCCESS);
    CHECK_EQ(size, 0);
    size_t binary_sizes[2] = {7, 7};
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES,
                              sizeof(binary_sizes), binary_sizes, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(size_t));
    CHECK_EQ(binary_sizes[0], 0);

    /* Built: success, no options, no log, an executable. */
    cl_build_status status = CL_BUILD_NONE;
    CHECK_EQ(clGetProgramBuildInfo(p, halves[0], CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_BUILD_SUCCESS);
    CHECK_EQ(clGetProgramBuildInfo(p, halves[0], CL_PROGRAM_BUILD_OPTIONS,
                                   sizeof(names), names, NULL),
             CL_SUCCESS);
    CHECK_STR(names, "");
    CHECK_EQ(clGetProgramBuildInfo(p, halves[0], CL_PROGRAM_BUILD_LOG,
                                   sizeof(names), names, NULL),
             CL_SUCCESS);
    CHECK_STR(names, "");
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    CHECK_EQ(clGetProgramBuildInfo(p, halves[0], CL_PROGRAM_BINARY_TYPE,
                                   sizeof(type), &type, NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    /* CL_INVALID_DEVICE "if device is not in the list of devices
     * associated with program": the context has it, the program not. */
    CHECK_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status), &status, NULL),
             CL_INVALID_DEVICE);

    /* clBuildProgram: CL_INVALID_OPERATION "if program was not created
     * with clCreateProgramWithSource, clCreateProgramWithIL or
     * clCreateProgramWithBinary", after the device checks;
     * clCompileProgram: "if program has no source or IL available". */
    CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clBuildProgram(p, 1, &halves[0], "-O2", NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clBuildProgram(p, 1, &device, NULL, NULL, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clGetProgramBuildInfo(p, halves[0], CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_BUILD_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);

    /* The device's whole list is a valid list of names. */
    char all[1024];
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS, sizeof(all),
                             all, NULL),
             CL_SUCCESS);
    CHECK_STR(all, ALL_NAMES);
    p = builtin_program(single, 1, &device, all);
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(kernels),
                              &kernels, NULL),
             CL_SUCCESS);
    CHECK_EQ(kernels, 9);
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
                              names, NULL),
             CL_SUCCESS);
    CHECK_STR(names, ALL_NAMES);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* ---- kernel objects ---------------------------------------------------------- */

static void check_create_kernel(void)
{
    cl_int err = 1;
    cl_program p = builtin_program(context, 1, &device, SAXPY ";refcl_cpu_id");
    /* CL_INVALID_VALUE "if kernel_name is NULL". */
    CHECK(clCreateKernel(p, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    /* CL_INVALID_KERNEL_NAME "if kernel_name is not found in program": a
     * built-in kernel the program was not made with, too. */
    const char *missing[] = {"refcl_fill_uchar", "", "refcl_saxpy",
                             SAXPY " "};
    for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
        err = 1;
        CHECK(clCreateKernel(p, missing[i], &err) == NULL);
        CHECK_EQ(err, CL_INVALID_KERNEL_NAME);
    }
    /* CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built
     * executable for program": a program from source. */
    const char *source = "kernel void k(void) {}";
    cl_program from_source =
        clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK(clCreateKernel(from_source, SAXPY, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
    cl_kernel out[8];
    CHECK_EQ(clCreateKernelsInProgram(from_source, 8, out, NULL),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clReleaseProgram(from_source), CL_SUCCESS);

    cl_kernel k = kernel_of(p, SAXPY);
    char name[64];
    CHECK_STR(kernel_string(k, CL_KERNEL_FUNCTION_NAME, name, sizeof(name)),
              SAXPY);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);

    /* clCreateKernelsInProgram: the count alone, CL_INVALID_VALUE "if
     * kernels is not NULL and num_kernels is less than the number of
     * kernels in program", then all of them in the program's order. */
    cl_uint count = 0;
    CHECK_EQ(clCreateKernelsInProgram(p, 0, NULL, &count), CL_SUCCESS);
    CHECK_EQ(count, 2);
    out[0] = NULL;
    count = 77;
    CHECK_EQ(clCreateKernelsInProgram(p, 1, out, &count), CL_INVALID_VALUE);
    CHECK(out[0] == NULL);
    CHECK_EQ(count, 77);
    CHECK_EQ(clCreateKernelsInProgram(p, 8, out, NULL), CL_SUCCESS);
    CHECK_STR(kernel_string(out[0], CL_KERNEL_FUNCTION_NAME, name,
                            sizeof(name)),
              SAXPY);
    CHECK_STR(kernel_string(out[1], CL_KERNEL_FUNCTION_NAME, name,
                            sizeof(name)),
              "refcl_cpu_id");
    CHECK_EQ(program_refs(p), 3);
    CHECK_EQ(clReleaseKernel(out[0]), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(out[1]), CL_SUCCESS);
    CHECK_EQ(program_refs(p), 1);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

static void check_kernel_info(void)
{
    cl_program p = builtin_program(context, 1, &device, ALL_NAMES);
    cl_kernel k = kernel_of(p, "refcl_reduce_add_uint");
    char text[64];
    CHECK_STR(kernel_string(k, CL_KERNEL_ATTRIBUTES, text, sizeof(text)), "");
    cl_uint args = 0;
    size_t size = 0;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(args), &args,
                             &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_uint));
    CHECK_EQ(args, 3);
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(args) - 1, &args,
                             NULL),
             CL_INVALID_VALUE);
    cl_context c = NULL;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(c), &c, NULL),
             CL_SUCCESS);
    CHECK(c == context);
    cl_program owner = NULL;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(owner), &owner,
                             NULL),
             CL_SUCCESS);
    CHECK(owner == p);
    CHECK_EQ(kernel_refs(k), 1);
    CHECK_EQ(clGetKernelInfo(k, 0x7FFF, sizeof(text), text, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* Every argument of every built-in kernel, as docs/built-in-kernels.md
 * lists them. */
static const struct arg_info {
    const char *kernel;
    const char *name;
    const char *type;
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier qualifier;
} arg_infos[] = {
#define G CL_KERNEL_ARG_ADDRESS_GLOBAL
#define P CL_KERNEL_ARG_ADDRESS_PRIVATE
#define CONST CL_KERNEL_ARG_TYPE_CONST
#define NONE CL_KERNEL_ARG_TYPE_NONE
    {"refcl_fill_uchar", "dst", "uchar*", G, NONE},
    {"refcl_fill_uchar", "value", "uchar", P, NONE},
    {"refcl_fill_ulong", "dst", "ulong*", G, NONE},
    {"refcl_fill_ulong", "value", "ulong", P, NONE},
    {"refcl_iota_uint", "dst", "uint*", G, NONE},
    {"refcl_iota_uint", "start", "uint", P, NONE},
    {"refcl_copy_uint", "dst", "uint*", G, NONE},
    {"refcl_copy_uint", "src", "uint*", G, CONST},
    {"refcl_lookup_uchar", "dst", "uchar*", G, NONE},
    {"refcl_lookup_uchar", "src", "uchar*", G, CONST},
    {"refcl_lookup_uchar", "table", "uchar*",
     CL_KERNEL_ARG_ADDRESS_CONSTANT, CONST},
    {"refcl_saxpy_float", "a", "float", P, NONE},
    {"refcl_saxpy_float", "x", "float*", G, CONST},
    {"refcl_saxpy_float", "y", "float*", G, NONE},
    {"refcl_reduce_add_uint", "src", "uint*", G, CONST},
    {"refcl_reduce_add_uint", "sums", "uint*", G, NONE},
    {"refcl_reduce_add_uint", "scratch", "uint*",
     CL_KERNEL_ARG_ADDRESS_LOCAL, NONE},
    {"refcl_cpu_id", "dst", "uint*", G, NONE},
    /* refcl_args64: tests/kernel/args64.c. */
#undef G
#undef P
#undef CONST
#undef NONE
};

static void check_arg_info(void)
{
    cl_program p = builtin_program(context, 1, &device, ALL_NAMES);
    size_t n = sizeof(arg_infos) / sizeof(arg_infos[0]);
    for (size_t i = 0; i < n;) {
        const char *kernel = arg_infos[i].kernel;
        cl_kernel k = kernel_of(p, kernel);
        cl_uint count = 0;
        CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(count), &count,
                                 NULL),
                 CL_SUCCESS);
        cl_uint index = 0;
        for (; i < n && strcmp(arg_infos[i].kernel, kernel) == 0;
             i++, index++) {
            const struct arg_info *e = &arg_infos[i];
            char text[64];
            size_t size = 0;
            CHECK_EQ(clGetKernelArgInfo(k, index, CL_KERNEL_ARG_NAME,
                                        sizeof(text), text, &size),
                     CL_SUCCESS);
            CHECK_STR(text, e->name);
            CHECK_EQ(size, strlen(e->name) + 1);
            CHECK_EQ(clGetKernelArgInfo(k, index, CL_KERNEL_ARG_TYPE_NAME,
                                        sizeof(text), text, NULL),
                     CL_SUCCESS);
            CHECK_STR(text, e->type);
            cl_kernel_arg_address_qualifier address = 0;
            CHECK_EQ(clGetKernelArgInfo(k, index,
                                        CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                        sizeof(address), &address, &size),
                     CL_SUCCESS);
            CHECK_EQ(size, sizeof(address));
            CHECK_EQ(address, e->address);
            cl_kernel_arg_access_qualifier access = 0;
            CHECK_EQ(clGetKernelArgInfo(k, index,
                                        CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                        sizeof(access), &access, NULL),
                     CL_SUCCESS);
            CHECK_EQ(access, CL_KERNEL_ARG_ACCESS_NONE);
            cl_kernel_arg_type_qualifier qualifier = 77;
            CHECK_EQ(clGetKernelArgInfo(k, index, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                        sizeof(qualifier), &qualifier, NULL),
                     CL_SUCCESS);
            CHECK_EQ(qualifier, e->qualifier);
            CHECK_EQ(clGetKernelArgInfo(k, index, CL_KERNEL_ARG_TYPE_NAME, 1,
                                        text, NULL),
                     CL_INVALID_VALUE);
        }
        CHECK_EQ(index, count);
        /* CL_INVALID_ARG_INDEX "if arg_index is not a valid argument
         * index". */
        char text[64];
        CHECK_EQ(clGetKernelArgInfo(k, count, CL_KERNEL_ARG_NAME,
                                    sizeof(text), text, NULL),
                 CL_INVALID_ARG_INDEX);
        CHECK_EQ(clGetKernelArgInfo(k, 0, 0x7FFF, sizeof(text), text, NULL),
                 CL_INVALID_VALUE);
        CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    }
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* ---- arguments ----------------------------------------------------------------- */

static cl_ulong local_mem_size(cl_kernel k)
{
    cl_ulong bytes = 77;
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                      sizeof(bytes), &bytes, NULL),
             CL_SUCCESS);
    return bytes;
}

static void check_set_arg(void)
{
    cl_program p = builtin_program(context, 1, &device, ALL_NAMES);
    cl_kernel saxpy = kernel_of(p, SAXPY);
    cl_kernel reduce = kernel_of(p, "refcl_reduce_add_uint");
    cl_kernel fill = kernel_of(p, "refcl_fill_uchar");
    float a = 2.0f;
    cl_uchar byte = 3;
    cl_mem none = NULL;

    /* CL_INVALID_ARG_INDEX "if arg_index is not a valid argument index". */
    CHECK_EQ(clSetKernelArg(saxpy, 3, sizeof(a), &a), CL_INVALID_ARG_INDEX);
    CHECK_EQ(clSetKernelArg(saxpy, CL_UINT_MAX, sizeof(a), &a),
             CL_INVALID_ARG_INDEX);
    /* A scalar: CL_INVALID_ARG_VALUE with no value, CL_INVALID_ARG_SIZE
     * "if arg_size does not match the size of the data type". */
    CHECK_EQ(clSetKernelArg(saxpy, 0, sizeof(a), NULL), CL_INVALID_ARG_VALUE);
    CHECK_EQ(clSetKernelArg(saxpy, 0, sizeof(double), &a),
             CL_INVALID_ARG_SIZE);
    CHECK_EQ(clSetKernelArg(saxpy, 0, 0, &a), CL_INVALID_ARG_SIZE);
    CHECK_EQ(clSetKernelArg(saxpy, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(fill, 1, sizeof(cl_uint), &byte),
             CL_INVALID_ARG_SIZE);
    CHECK_EQ(clSetKernelArg(fill, 1, sizeof(byte), &byte), CL_SUCCESS);
    /* A buffer: CL_INVALID_ARG_SIZE "if the argument is a memory object
     * and arg_size != sizeof(cl_mem)"; CL_INVALID_MEM_OBJECT for anything
     * that is not a memory object, an object of another type included;
     * NULL, or a pointer to NULL, sets NULL. */
    CHECK_EQ(clSetKernelArg(saxpy, 1, sizeof(cl_mem) - 1, &none),
             CL_INVALID_ARG_SIZE);
    cl_mem not_mem[] = {(cl_mem)context, (cl_mem)saxpy, (cl_mem)device};
    for (int i = 0; i < 3; i++)
        CHECK_EQ(clSetKernelArg(saxpy, 1, sizeof(cl_mem), &not_mem[i]),
                 CL_INVALID_MEM_OBJECT);
    if (!test_through_loader()) {
        cl_mem zeroed = test_zeroed_handle();
        cl_mem unmapped = test_unmapped_handle();
        CHECK_EQ(clSetKernelArg(saxpy, 1, sizeof(cl_mem), &zeroed),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clSetKernelArg(saxpy, 1, sizeof(cl_mem), &unmapped),
                 CL_INVALID_MEM_OBJECT);
    }
    CHECK_EQ(clSetKernelArg(saxpy, 1, sizeof(cl_mem), NULL), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(saxpy, 2, sizeof(cl_mem), &none), CL_SUCCESS);
    /* __local: "arg_value must be NULL" (CL_INVALID_ARG_VALUE),
     * CL_INVALID_ARG_SIZE "if arg_size is zero". */
    CHECK_EQ(clSetKernelArg(reduce, 2, 64, &a), CL_INVALID_ARG_VALUE);
    CHECK_EQ(clSetKernelArg(reduce, 2, 0, NULL), CL_INVALID_ARG_SIZE);
    CHECK_EQ(local_mem_size(reduce), 0);
    CHECK_EQ(clSetKernelArg(reduce, 2, 1000, NULL), CL_SUCCESS);
    CHECK_EQ(local_mem_size(reduce), 1000);
    /* A failed call leaves the value set before: "the internal state of
     * kernel may only be modified when that error code is
     * CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY". */
    CHECK_EQ(clSetKernelArg(reduce, 2, 0, NULL), CL_INVALID_ARG_SIZE);
    CHECK_EQ(local_mem_size(reduce), 1000);

    /* CL_INVALID_KERNEL "if kernel is not a valid kernel object". */
    cl_kernel released = kernel_of(p, SAXPY);
    CHECK_EQ(clReleaseKernel(released), CL_SUCCESS);
    void *bad[6];
    int n = test_bad_handles(bad, released, p, context);
    for (int i = 0; i < n; i++) {
        CHECK_EQ(clSetKernelArg(bad[i], 0, sizeof(a), &a), CL_INVALID_KERNEL);
        CHECK_EQ(clSetKernelArgSVMPointer(bad[i], 0, NULL),
                 CL_INVALID_KERNEL);
        CHECK_EQ(clSetKernelExecInfo(bad[i], CL_KERNEL_EXEC_INFO_SVM_PTRS, 0,
                                     NULL),
                 CL_INVALID_KERNEL);
    }
    CHECK_EQ(clReleaseKernel(saxpy), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(reduce), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(fill), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

static cl_device_svm_capabilities svm_capabilities(void)
{
    cl_device_svm_capabilities caps = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps),
                             &caps, NULL),
             CL_SUCCESS);
    return caps;
}

static void check_svm_args(void)
{
    cl_program p = builtin_program(context, 1, &device, ALL_NAMES);
    cl_kernel k = kernel_of(p, SAXPY);
    cl_kernel reduce = kernel_of(p, "refcl_reduce_add_uint");
    cl_device_svm_capabilities caps = svm_capabilities();
    if (!caps) {
        /* CL_INVALID_OPERATION "if no devices in the context associated
         * with kernel support SVM", for both calls. */
        float x;
        CHECK_EQ(clSetKernelArgSVMPointer(k, 1, &x), CL_INVALID_OPERATION);
        CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0,
                                     NULL),
                 CL_INVALID_OPERATION);
    } else {
        float *svm = clSVMAlloc(context, CL_MEM_READ_WRITE,
                                64 * sizeof(float), 0);
        CHECK(svm != NULL);
        float own[4];
        CHECK_EQ(clSetKernelArgSVMPointer(k, 3, svm), CL_INVALID_ARG_INDEX);
        /* CL_INVALID_ARG_VALUE "if arg_value specified is not a valid
         * value": a scalar or __local argument, a pointer misaligned for
         * float, memory that is no SVM allocation. */
        CHECK_EQ(clSetKernelArgSVMPointer(k, 0, svm), CL_INVALID_ARG_VALUE);
        CHECK_EQ(clSetKernelArgSVMPointer(reduce, 2, svm),
                 CL_INVALID_ARG_VALUE);
        CHECK_EQ(clSetKernelArgSVMPointer(k, 1, (char *)svm + 2),
                 CL_INVALID_ARG_VALUE);
        if (!(caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
            CHECK_EQ(clSetKernelArgSVMPointer(k, 1, own),
                     CL_INVALID_ARG_VALUE);
        CHECK_EQ(clSetKernelArgSVMPointer(k, 1, svm + 8), CL_SUCCESS);
        CHECK_EQ(clSetKernelArgSVMPointer(k, 2, NULL), CL_SUCCESS);
        /* CL_INVALID_VALUE "if param_value is NULL and param_value_size is
         * greater than zero, or if the size specified by param_value_size
         * is not valid". */
        void *ptrs[2] = {svm, svm + 4};
        CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                     sizeof(ptrs), NULL),
                 CL_INVALID_VALUE);
        CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                     sizeof(ptrs) - 1, ptrs),
                 CL_INVALID_VALUE);
        CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                     sizeof(ptrs), ptrs),
                 CL_SUCCESS);
        CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0,
                                     NULL),
                 CL_SUCCESS);
        clSVMFree(context, svm);
    }
    /* CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, a cl_bool: CL_TRUE is
     * CL_INVALID_OPERATION "if ... no devices in the context associated
     * with kernel support fine-grain system SVM allocations". */
    cl_bool on = CL_TRUE, off = CL_FALSE;
    CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                 sizeof(on) + 1, &on),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                 sizeof(on), NULL),
             CL_INVALID_VALUE);
    if (!(caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
        CHECK_EQ(clSetKernelExecInfo(k,
                                     CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                     sizeof(on), &on),
                 CL_INVALID_OPERATION);
    CHECK_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                 sizeof(off), &off),
             CL_SUCCESS);
    /* CL_INVALID_VALUE "if param_name is not valid". */
    CHECK_EQ(clSetKernelExecInfo(k, 0x7FFF, sizeof(off), &off),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(reduce), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* ---- per-device queries --------------------------------------------------- */

static void check_work_group_info(void)
{
    cl_program p = builtin_program(context, 1, &device, ALL_NAMES);
    cl_kernel k = kernel_of(p, "refcl_iota_uint");
    size_t value = 0, size = 0, three[3] = {7, 7, 7};
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(value), &value, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(size_t));
    size_t device_max = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                             sizeof(device_max), &device_max, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 4096);
    CHECK(value <= device_max);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, halves[0],
                                      CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                      sizeof(value), &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 1);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device,
                                      CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                      sizeof(three), three, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(three));
    CHECK(three[0] == 0 && three[1] == 0 && three[2] == 0);
    /* A built-in kernel: CL_KERNEL_GLOBAL_WORK_SIZE answers. */
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_GLOBAL_WORK_SIZE,
                                      sizeof(three), three, NULL),
             CL_SUCCESS);
    CHECK(three[0] == SIZE_MAX && three[1] == SIZE_MAX &&
          three[2] == SIZE_MAX);
    cl_ulong bytes = 77;
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                      sizeof(bytes), &bytes, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_ulong));
    CHECK_EQ(bytes, 0);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                      sizeof(bytes), &bytes, NULL),
             CL_SUCCESS);
    CHECK_EQ(bytes, 0);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(value) - 1, &value, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, device, 0x7FFF, sizeof(value),
                                      &value, NULL),
             CL_INVALID_VALUE);
    /* CL_INVALID_DEVICE "if device is not in the list of devices
     * associated with kernel or if device is NULL but there is more than
     * one device associated with kernel": the context's list. */
    CHECK_EQ(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(value), &value, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, halves[1], CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(value), &value, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clGetKernelWorkGroupInfo(k, (cl_device_id)context,
                                      CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(value), &value, NULL),
             CL_INVALID_DEVICE);

    /* Sub-groups: a built-in kernel runs a work-group as one sub-group
     * ("In the degenerate case, a single sub-group must be supported for
     * each work-group"); the device is checked after the kernel. */
    size_t local = 64;
    CHECK_EQ(clGetKernelSubGroupInfo(k, device,
                                     CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof(local), &local, sizeof(value),
                                     &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 64u);
    CHECK_EQ(clGetKernelSubGroupInfo(k, halves[1],
                                     CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                     sizeof(local), &local, sizeof(value),
                                     &value, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);

    /* A kernel of a one-device context: device may be NULL. */
    p = builtin_program(single, 1, &device, "refcl_cpu_id");
    k = kernel_of(p, "refcl_cpu_id");
    CHECK_EQ(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof(value), &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                     NULL, sizeof(value), &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 1u);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* ---- clone, lifetime, bad handles ------------------------------------------- */

static void check_clone(void)
{
    cl_program p = builtin_program(context, 1, &device, ALL_NAMES);
    cl_kernel k = kernel_of(p, "refcl_reduce_add_uint");
    CHECK_EQ(clSetKernelArg(k, 2, 256, NULL), CL_SUCCESS);
    CHECK_EQ(clRetainKernel(k), CL_SUCCESS);
    cl_int err = 1;
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(clone != NULL && clone != k);
    /* "the reference count on the returned kernel object is set as if it
     * had been returned by clCreateKernel. The reference count of
     * source_kernel will not be changed." */
    CHECK_EQ(kernel_refs(clone), 1);
    CHECK_EQ(kernel_refs(k), 2);
    CHECK_EQ(program_refs(p), 3);
    char name[64];
    CHECK_STR(kernel_string(clone, CL_KERNEL_FUNCTION_NAME, name,
                            sizeof(name)),
              "refcl_reduce_add_uint");
    /* Its arguments are a copy: setting them leaves the source alone. */
    CHECK_EQ(local_mem_size(clone), 256);
    CHECK_EQ(clSetKernelArg(clone, 2, 512, NULL), CL_SUCCESS);
    CHECK_EQ(local_mem_size(clone), 512);
    CHECK_EQ(local_mem_size(k), 256);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(clone), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

/* A kernel keeps its program alive, and the program its context:
 * releasing them first leaves the kernel whole; its release then takes
 * them all, before it returns. */
static void check_lifetime(void)
{
    cl_int err;
    cl_context own = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_program p = builtin_program(own, 1, &device, SAXPY);
    cl_kernel k = kernel_of(p, SAXPY);
    CHECK_EQ(program_refs(p), 2);
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(own), CL_SUCCESS);
    CHECK_EQ(program_refs(p), 1);
    cl_program owner = NULL;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(owner), &owner,
                             NULL),
             CL_SUCCESS);
    CHECK(owner == p);
    cl_context c = NULL;
    CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(c), &c, NULL),
             CL_SUCCESS);
    cl_uint refs = 0;
    CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 1);
    /* Still a kernel: it can be cloned and set. */
    float a = 1.0f;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_INVALID_PROGRAM);
    CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_INVALID_CONTEXT);
}

static void check_bad_kernels(void)
{
    cl_program p = builtin_program(context, 1, &device, SAXPY);
    cl_kernel released = kernel_of(p, SAXPY);
    CHECK_EQ(clReleaseKernel(released), CL_SUCCESS);
    void *bad[6];
    int n = test_bad_handles(bad, released, p, context);
    for (int i = 0; i < n; i++) {
        cl_uint value = 7;
        size_t size = 7;
        CHECK_EQ(clRetainKernel(bad[i]), CL_INVALID_KERNEL);
        CHECK_EQ(clReleaseKernel(bad[i]), CL_INVALID_KERNEL);
        CHECK_EQ(clGetKernelInfo(bad[i], CL_KERNEL_NUM_ARGS, sizeof(value),
                                 &value, NULL),
                 CL_INVALID_KERNEL);
        CHECK_EQ(clGetKernelArgInfo(bad[i], 0, CL_KERNEL_ARG_NAME,
                                    sizeof(value), &value, NULL),
                 CL_INVALID_KERNEL);
        CHECK_EQ(clGetKernelWorkGroupInfo(bad[i], device,
                                          CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof(size), &size, NULL),
                 CL_INVALID_KERNEL);
        CHECK_EQ(clGetKernelSubGroupInfo(bad[i], device,
                                         CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                         NULL, sizeof(size), &size, NULL),
                 CL_INVALID_KERNEL);
        cl_int err = 1;
        CHECK(clCloneKernel(bad[i], &err) == NULL);
        CHECK_EQ(err, CL_INVALID_KERNEL);
        CHECK_EQ(value, 7);
        CHECK_EQ(size, 7);
    }
    cl_program released_program = builtin_program(context, 1, &device, SAXPY);
    CHECK_EQ(clReleaseProgram(released_program), CL_SUCCESS);
    n = test_bad_handles(bad, released_program, context, device);
    for (int i = 0; i < n; i++) {
        cl_int err = 1;
        CHECK(clCreateKernel(bad[i], SAXPY, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_PROGRAM);
        CHECK_EQ(clCreateKernelsInProgram(bad[i], 0, NULL, NULL),
                 CL_INVALID_PROGRAM);
    }
    CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
}

int main(void)
{
    if (!test_first_device(&platform, &device) ||
        !test_device_halves(device, halves))
        return 1;
    cl_int err;
    cl_device_id both[2] = {device, halves[0]};
    context = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    single = clCreateContext(NULL, 1, &device, NULL, NULL, &err);

    check_program_errors();
    check_program_answers();
    check_create_kernel();
    check_kernel_info();
    check_arg_info();
    check_set_arg();
    check_svm_args();
    check_work_group_info();
    check_clone();
    check_lifetime();
    check_bad_kernels();

    CHECK_EQ(clReleaseContext(single), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(halves[0]), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(halves[1]), CL_SUCCESS);
    return TEST_RESULT();
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/program: programs without a compiler. clCreateProgramWithSource
 * keeps the source; clBuildProgram and clCompileProgram refuse with
 * CL_COMPILER_NOT_AVAILABLE and leave a build status, options and log that
 * say so, per device; clLinkProgram refuses with CL_LINKER_NOT_AVAILABLE;
 * binaries, IL and built-in kernels are refused; kernel creation fails
 * with CL_INVALID_PROGRAM_EXECUTABLE; every query and error code.
 */
#include <stdint.h>

/* clSetProgramReleaseCallback is deprecated by OpenCL 2.2. */
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "check.h"

static const char *source[] = {"kernel void a(global int *p) { p[0] = 1; }\n",
                               "kernel void b(global int *p) { p[0] = 2; }\n"};

static cl_platform_id platform;
static cl_device_id device;
static cl_device_id subs[2]; /* halves of device */
static cl_context context; /* device and subs[0] */

static cl_program program_new(void)
{
    cl_int err = 1;
    cl_program program =
        clCreateProgramWithSource(context, 2, source, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return program;
}

/* A string query of clGetProgramBuildInfo, both halves of the protocol. */
static void check_build_string(cl_program program, cl_device_id d,
                               cl_program_build_info name,
                               const char *expected)
{
    char buf[512];
    size_t size = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, d, name, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, strlen(expected) + 1);
    CHECK_EQ(clGetProgramBuildInfo(program, d, name, sizeof(buf), buf, NULL),
             CL_SUCCESS);
    CHECK_STR(buf, expected);
}

static cl_build_status build_status(cl_program program, cl_device_id d)
{
    cl_build_status status = 99;
    size_t size = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status), &status, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(status));
    return status;
}

static void check_source(void)
{
    cl_program program = program_new();
    char text[256];
    size_t size = 0;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_SOURCE, sizeof(text), text,
                              &size),
             CL_SUCCESS);
    char joined[256];
    snprintf(joined, sizeof(joined), "%s%s", source[0], source[1]);
    CHECK_STR(text, joined);
    CHECK_EQ(size, strlen(joined) + 1);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);

    /* Explicit lengths: only that much of each string, nulls stripped. */
    const char *pieces[] = {"abc\0def", "ghi", "jkl"};
    const size_t lengths[] = {7, 0, 2};
    cl_int err = 1;
    program = clCreateProgramWithSource(context, 3, pieces, lengths, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_SOURCE, sizeof(text), text,
                              &size),
             CL_SUCCESS);
    CHECK_STR(text, "abcdefghijk");
    CHECK_EQ(size, 12);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);

    /* CL_INVALID_VALUE "if count is zero or if strings or any entry in
     * strings is NULL". */
    const char *with_null[] = {source[0], NULL};
    CHECK(clCreateProgramWithSource(context, 0, source, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithSource(context, 1, NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithSource(context, 2, with_null, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithSource((cl_context)device, 1, source, NULL,
                                    &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
}

static void check_program_info(void)
{
    cl_program program = program_new();
    cl_uint value = 0;
    cl_context c = NULL;
    cl_device_id devices[4] = {NULL};
    size_t size = 0;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT,
                              sizeof(value), &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 1);
    CHECK_EQ(clRetainProgram(program), CL_SUCCESS);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT,
                              sizeof(value), &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 2);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_CONTEXT, sizeof(c), &c,
                              NULL),
             CL_SUCCESS);
    CHECK(c == context);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(value),
                              &value, NULL),
             CL_SUCCESS);
    CHECK_EQ(value, 2);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof(devices),
                              devices, &size),
             CL_SUCCESS);
    CHECK_EQ(size, 2 * sizeof(cl_device_id));
    CHECK(devices[0] == device && devices[1] == subs[0]);

    /* From source: no IL ("param_value_size_ret will be set to 0"), no
     * binary (size 0 per device, nothing written through the pointers). */
    unsigned char il = 0x5a;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_IL, sizeof(il), &il, &size),
             CL_SUCCESS);
    CHECK_EQ(size, 0);
    CHECK_EQ(il, 0x5a);
    size_t sizes[2] = {7, 7};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(sizes),
                              sizes, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(sizes));
    CHECK(sizes[0] == 0 && sizes[1] == 0);
    unsigned char bin0 = 0x5a, bin1 = 0x5a;
    unsigned char *binaries[2] = {&bin0, &bin1};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binaries),
                              binaries, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(binaries));
    CHECK(bin0 == 0x5a && bin1 == 0x5a && binaries[0] == &bin0);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES,
                              sizeof(binaries) - 1, binaries, &size),
             CL_INVALID_VALUE);

    /* Nothing was built: "CL_INVALID_PROGRAM_EXECUTABLE if param_name is
     * CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES, ...". */
    const cl_program_info needs_executable[] = {
        CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES,
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
        CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT};
    char buf[64];
    for (size_t i = 0; i < 4; i++)
        CHECK_EQ(clGetProgramInfo(program, needs_executable[i], sizeof(buf),
                                  buf, NULL),
                 CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clGetProgramInfo(program, 0x1170, sizeof(buf), buf, NULL),
             CL_INVALID_VALUE);
    value = 7;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, 3, &value,
                              NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(value, 7);

    /* The program carries its context's dispatch data. */
    CHECK(test_object_word(program, 0) == test_object_word(context, 0));
    CHECK(test_object_word(program, 1) == test_object_word(context, 1));
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

static const char build_log[] =
    "refcl: no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE): "
    "clBuildProgram built nothing and returned CL_COMPILER_NOT_AVAILABLE\n";
static const char compile_log[] =
    "refcl: no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE): "
    "clCompileProgram compiled nothing and returned "
    "CL_COMPILER_NOT_AVAILABLE\n";

static int notified;

static void CL_CALLBACK notify(cl_program program, void *data)
{
    (void)program;
    (void)data;
    notified++;
}

static void check_build(void)
{
    cl_program program = program_new();
    /* Before any build: CL_BUILD_NONE, "an empty string". */
    CHECK_EQ(build_status(program, device), CL_BUILD_NONE);
    check_build_string(program, device, CL_PROGRAM_BUILD_OPTIONS, "");
    check_build_string(program, device, CL_PROGRAM_BUILD_LOG, "");

    /* Built for subs[0] only: device stays untouched. */
    CHECK_EQ(clBuildProgram(program, 1, &subs[0], "-cl-std=CL1.2", notify,
                            &notified),
             CL_COMPILER_NOT_AVAILABLE);
    CHECK_EQ(notified, 0); /* no build began, so none finished */
    CHECK_EQ(build_status(program, subs[0]), CL_BUILD_ERROR);
    check_build_string(program, subs[0], CL_PROGRAM_BUILD_OPTIONS,
                       "-cl-std=CL1.2");
    check_build_string(program, subs[0], CL_PROGRAM_BUILD_LOG, build_log);
    CHECK_EQ(build_status(program, device), CL_BUILD_NONE);

    /* For all devices, NULL options "the same result as the empty
     * string". */
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL),
             CL_COMPILER_NOT_AVAILABLE);
    CHECK_EQ(build_status(program, device), CL_BUILD_ERROR);
    check_build_string(program, device, CL_PROGRAM_BUILD_OPTIONS, "");
    check_build_string(program, subs[0], CL_PROGRAM_BUILD_OPTIONS, "");

    /* clCompileProgram: its own log. */
    CHECK_EQ(clCompileProgram(program, 1, &device, "-w", 0, NULL, NULL, NULL,
                              NULL),
             CL_COMPILER_NOT_AVAILABLE);
    check_build_string(program, device, CL_PROGRAM_BUILD_LOG, compile_log);
    check_build_string(program, device, CL_PROGRAM_BUILD_OPTIONS, "-w");
    check_build_string(program, subs[0], CL_PROGRAM_BUILD_LOG, build_log);

    cl_program_binary_type type = 99;
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE,
                                   sizeof(type), &type, NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_PROGRAM_BINARY_TYPE_NONE);
    size_t globals = 99;
    CHECK_EQ(clGetProgramBuildInfo(program, device,
                                   CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                   sizeof(globals), &globals, NULL),
             CL_SUCCESS);
    CHECK_EQ(globals, 0);

    /* Build-info errors: device not the program's, short buffer, unknown
     * name. */
    cl_build_status status = 7;
    CHECK_EQ(clGetProgramBuildInfo(program, subs[1], CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status), &status, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clGetProgramBuildInfo(program, (cl_device_id)context,
                                   CL_PROGRAM_BUILD_STATUS, sizeof(status),
                                   &status, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS,
                                   sizeof(status) - 1, &status, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetProgramBuildInfo(program, device, 0x1187, sizeof(status),
                                   &status, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(status, 7);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

static void check_build_errors(void)
{
    cl_program program = program_new();
    int data;
    /* Checked before the missing compiler. */
    CHECK_EQ(clBuildProgram(program, 1, NULL, NULL, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clBuildProgram(program, 0, &device, NULL, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, &data),
             CL_INVALID_VALUE);
    CHECK_EQ(clBuildProgram(program, 1, &subs[1], NULL, NULL, NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clBuildProgram((cl_program)context, 0, NULL, NULL, NULL, NULL),
             CL_INVALID_PROGRAM);

    cl_program header = program_new();
    const char *name = "h.h";
    CHECK_EQ(clCompileProgram(program, 0, NULL, NULL, 1, NULL, &name, NULL,
                              NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clCompileProgram(program, 0, NULL, NULL, 0, &header, NULL, NULL,
                              NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clCompileProgram(program, 0, NULL, NULL, 1, &header, NULL, NULL,
                              NULL),
             CL_INVALID_VALUE);
    cl_program not_a_program = (cl_program)context;
    CHECK_EQ(clCompileProgram(program, 0, NULL, NULL, 1, &not_a_program,
                              &name, NULL, NULL),
             CL_INVALID_PROGRAM);
    CHECK_EQ(clCompileProgram(program, 0, NULL, NULL, 0, NULL, NULL, NULL,
                              &data),
             CL_INVALID_VALUE);
    CHECK_EQ(clCompileProgram(program, 1, &subs[1], NULL, 0, NULL, NULL, NULL,
                              NULL),
             CL_INVALID_DEVICE);
    CHECK_EQ(clCompileProgram(program, 0, NULL, "-I.", 1, &header, &name,
                              NULL, NULL),
             CL_COMPILER_NOT_AVAILABLE);
    /* Nothing recorded by the calls that failed their checks. */
    CHECK_EQ(build_status(program, subs[0]), CL_BUILD_ERROR);
    check_build_string(program, subs[0], CL_PROGRAM_BUILD_OPTIONS, "-I.");
    CHECK_EQ(build_status(header, device), CL_BUILD_NONE);
    CHECK_EQ(clReleaseProgram(header), CL_SUCCESS);

    /* clLinkProgram: "CL_LINKER_NOT_AVAILABLE if a linker is not
     * available", after its argument checks. */
    cl_int err = 1;
    CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &program, NULL, NULL,
                        &err) == NULL);
    CHECK_EQ(err, CL_LINKER_NOT_AVAILABLE);
    CHECK(clLinkProgram(context, 1, &subs[0], "-create-library", 1, &program,
                        notify, NULL, &err) == NULL);
    CHECK_EQ(err, CL_LINKER_NOT_AVAILABLE);
    CHECK_EQ(notified, 0);
    CHECK(clLinkProgram(context, 0, NULL, NULL, 0, NULL, NULL, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clLinkProgram(context, 0, NULL, NULL, 1, NULL, NULL, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &not_a_program, NULL, NULL,
                        &err) == NULL);
    CHECK_EQ(err, CL_INVALID_PROGRAM);
    CHECK(clLinkProgram(context, 1, NULL, NULL, 1, &program, NULL, NULL,
                        &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &program, NULL, &data,
                        &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clLinkProgram(context, 1, &subs[1], NULL, 1, &program, NULL, NULL,
                        &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    CHECK(clLinkProgram((cl_context)device, 0, NULL, NULL, 1, &program, NULL,
                        NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
    CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &program, NULL, NULL,
                        NULL) == NULL);

    /* "clSetProgramReleaseCallback may unconditionally return an error"
     * without destructors of program-scope global variables, which no
     * refcl device runs; specialization constants:
     * CL_INVALID_OPERATION "if no devices associated with program support
     * intermediate language programs" (CL_DEVICE_IL_VERSION ""), else
     * CL_INVALID_PROGRAM "if program is not a valid program object created
     * from an intermediate language". */
    CHECK_EQ(clSetProgramReleaseCallback(program, notify, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clSetProgramReleaseCallback((cl_program)context, notify, NULL),
             CL_INVALID_PROGRAM);
    cl_uint spec = 1;
    char il_version[64] = "?";
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof(il_version),
                             il_version, NULL), CL_SUCCESS);
    CHECK_EQ(clSetProgramSpecializationConstant(program, 0, sizeof(spec),
                                                &spec),
             il_version[0] ? CL_INVALID_PROGRAM : CL_INVALID_OPERATION);
    CHECK_EQ(clSetProgramSpecializationConstant((cl_program)context, 0,
                                                sizeof(spec), &spec),
             CL_INVALID_PROGRAM);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

static void check_other_sources(void)
{
    cl_int err = 1, status[2] = {7, 7};
    const unsigned char bytes[] = {0x7f, 'E', 'L', 'F'};
    const unsigned char *binaries[2] = {bytes, bytes};
    const size_t lengths[2] = {sizeof(bytes), sizeof(bytes)};
    cl_device_id both[2] = {device, subs[0]};

    /* "CL_INVALID_BINARY if an invalid program binary was encountered for
     * any device", with the status of each. */
    CHECK(clCreateProgramWithBinary(context, 2, both, lengths, binaries,
                                    status, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_BINARY);
    CHECK(status[0] == CL_INVALID_BINARY && status[1] == CL_INVALID_BINARY);
    const size_t one_empty[2] = {sizeof(bytes), 0};
    CHECK(clCreateProgramWithBinary(context, 2, both, one_empty, binaries,
                                    status, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(status[0] == CL_INVALID_BINARY && status[1] == CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBinary(context, 2, both, NULL, binaries, NULL,
                                    &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBinary(context, 0, both, lengths, binaries, NULL,
                                    &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBinary(context, 1, NULL, lengths, binaries, NULL,
                                    &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    status[0] = 7;
    CHECK(clCreateProgramWithBinary(context, 1, &subs[1], lengths, binaries,
                                    status, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    CHECK_EQ(status[0], 7);
    CHECK(clCreateProgramWithBinary((cl_context)device, 1, both, lengths,
                                    binaries, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);

    /* No IL: CL_DEVICE_IL_VERSION is "". */
    CHECK(clCreateProgramWithIL(context, bytes, sizeof(bytes), &err) == NULL);
    CHECK_EQ(err, CL_INVALID_OPERATION);
    CHECK(clCreateProgramWithIL((cl_context)device, bytes, sizeof(bytes),
                                &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);

    /* Unknown built-in kernels (kernel/kernel tests the known ones). */
    CHECK(clCreateProgramWithBuiltInKernels(context, 1, both, "copy", &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBuiltInKernels(context, 1, both, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBuiltInKernels(context, 0, NULL, "copy", &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBuiltInKernels(context, 1, &subs[1], "copy",
                                            &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
}

static void check_kernels(void)
{
    cl_program program = program_new();
    CHECK_EQ(clBuildProgram(program, 0, NULL, NULL, NULL, NULL),
             CL_COMPILER_NOT_AVAILABLE);
    cl_int err = 1;
    /* "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
     * executable for program". */
    CHECK(clCreateKernel(program, "a", &err) == NULL);
    CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK(clCreateKernel(program, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateKernel((cl_program)context, "a", &err) == NULL);
    CHECK_EQ(err, CL_INVALID_PROGRAM);
    CHECK(clCreateKernel(program, "a", NULL) == NULL);
    cl_kernel kernels[2] = {NULL, NULL};
    cl_uint count = 7;
    CHECK_EQ(clCreateKernelsInProgram(program, 2, kernels, &count),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(count, 7);
    CHECK(kernels[0] == NULL);
    CHECK_EQ(clCreateKernelsInProgram((cl_program)context, 0, NULL, &count),
             CL_INVALID_PROGRAM);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* The program holds its context. */
static void check_lifetime(void)
{
    cl_int err;
    cl_context own = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_program program = clCreateProgramWithSource(own, 1, source, NULL, &err);
    CHECK_EQ(clReleaseContext(own), CL_SUCCESS);
    cl_context c = NULL;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_CONTEXT, sizeof(c), &c,
                              NULL),
             CL_SUCCESS);
    cl_uint refs = 0;
    CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 1);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_INVALID_CONTEXT);
}

static void check_bad_programs(void)
{
    cl_program released = program_new();
    CHECK_EQ(clReleaseProgram(released), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, released, context, device);
    for (int i = 0; i < count; i++) {
        cl_uint refs = 7;
        CHECK_EQ(clGetProgramInfo(bad[i], CL_PROGRAM_REFERENCE_COUNT,
                                  sizeof(refs), &refs, NULL),
                 CL_INVALID_PROGRAM);
        CHECK_EQ(refs, 7);
        CHECK_EQ(clGetProgramBuildInfo(bad[i], device,
                                       CL_PROGRAM_BUILD_STATUS, sizeof(refs),
                                       &refs, NULL),
                 CL_INVALID_PROGRAM);
        CHECK_EQ(clRetainProgram(bad[i]), CL_INVALID_PROGRAM);
        CHECK_EQ(clReleaseProgram(bad[i]), CL_INVALID_PROGRAM);
        CHECK_EQ(clBuildProgram(bad[i], 0, NULL, NULL, NULL, NULL),
                 CL_INVALID_PROGRAM);
        CHECK_EQ(clCompileProgram(bad[i], 0, NULL, NULL, 0, NULL, NULL, NULL,
                                  NULL),
                 CL_INVALID_PROGRAM);
        cl_int err = 1;
        CHECK(clCreateKernel(bad[i], "a", &err) == NULL);
        CHECK_EQ(err, CL_INVALID_PROGRAM);
    }
}

int main(void)
{
    if (!test_first_device(&platform, &device) ||
        !test_device_halves(device, subs))
        return 1;
    cl_device_id both[2] = {device, subs[0]};
    cl_int err;
    context = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);

    check_source();
    check_program_info();
    check_build();
    check_build_errors();
    check_other_sources();
    check_kernels();
    check_lifetime();
    check_bad_programs();

    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(subs[0]), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(subs[1]), CL_SUCCESS);
    return TEST_RESULT();
}

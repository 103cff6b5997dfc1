/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/compiler: programs built by refcl's compiler (clang-15 as a
 * subprocess, the work-group pass, the builtin library), on a context of
 * the device and one of its halves. Every build option accepted by the
 * entry points that take it and refused by the others with their own
 * code; a syntax error's log with line:column; build status, options, log
 * and binary type through build, compile, link and binaries; headers with
 * directories; -create-library; a link error's log; binary round trips and
 * garbage, truncated, foreign and damaged binaries refused; pfn_notify.
 * Skipped (77) where the device reports no compiler.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static cl_device_id device;
static cl_device_id subs[2];
static cl_context context; /* device and subs[0] */

/* Every build checks the macros the device defines whatever -cl-std says
 * (OpenCL C 3.0 s6.12): "__OPENCL_VERSION__ ... will substitute the
 * integer 300" (clang leaves it to refcl), "__ENDIAN_LITTLE__ ... an
 * integer constant of 1 if the device is little endian". */
static const char saxpy[] =
    "#if __OPENCL_VERSION__ != 300 || __ENDIAN_LITTLE__ != 1\n"
    "#error device macros\n"
    "#endif\n"
    "kernel void saxpy(global float *y, global const float *x, float a)\n"
    "{ size_t i = get_global_id(0); y[i] += a * x[i]; }\n"
    "kernel void nothing(void) {}\n";

static cl_program from_source(const char *text)
{
    cl_int err = 1;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL,
                                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    return program;
}

/* A string of clGetProgramBuildInfo, both halves of the protocol (NULL on
 * a failure; free it). */
static char *build_string(cl_program program, cl_device_id d,
                          cl_program_build_info name)
{
    size_t size = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, d, name, 0, NULL, &size),
             CL_SUCCESS);
    char *text = calloc(1, size + 1);
    size_t again = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, d, name, size, text, &again),
             CL_SUCCESS);
    CHECK_EQ(again, size);
    CHECK_EQ(strlen(text) + 1, size);
    return text;
}

static void check_record(cl_program program, cl_device_id d,
                         cl_build_status status, const char *options,
                         cl_program_binary_type type)
{
    cl_build_status s = 99;
    cl_program_binary_type t = 99;
    CHECK_EQ(clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_STATUS,
                                   sizeof(s), &s, NULL), CL_SUCCESS);
    CHECK_EQ(s, status);
    CHECK_EQ(clGetProgramBuildInfo(program, d, CL_PROGRAM_BINARY_TYPE,
                                   sizeof(t), &t, NULL), CL_SUCCESS);
    CHECK_EQ(t, type);
    char *o = build_string(program, d, CL_PROGRAM_BUILD_OPTIONS);
    CHECK_STR(o, options);
    free(o);
}

static void check_names(cl_program program, const char *names, size_t count)
{
    char buf[256];
    size_t n = 0, size = 0;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
                              NULL), CL_SUCCESS);
    CHECK_EQ(n, count);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof(buf),
                              buf, &size), CL_SUCCESS);
    CHECK_STR(buf, names);
    CHECK_EQ(size, strlen(names) + 1);
}

static int notified;
static void CL_CALLBACK notify(cl_program program, void *user_data)
{
    (void)program;
    CHECK(user_data == &notified);
    notified++;
}

static void check_build(void)
{
    cl_program program = from_source(saxpy);
    size_t n = 0;
    /* CL_INVALID_PROGRAM_EXECUTABLE "if ... a successful program
     * executable has not been built". */
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
                              NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n),
             CL_INVALID_PROGRAM_EXECUTABLE);
    check_record(program, device, CL_BUILD_NONE, "",
                 CL_PROGRAM_BINARY_TYPE_NONE);
    const char *every = "-D A -DB=2 -D C=\"1 + 2\" -I . -Idir -cl-std=CL3.0 "
                        "-w -Werror -cl-mad-enable -cl-no-signed-zeros "
                        "-cl-unsafe-math-optimizations -cl-finite-math-only "
                        "-cl-fast-relaxed-math -cl-denorms-are-zero "
                        "-cl-single-precision-constant "
                        "-cl-fp32-correctly-rounded-divide-sqrt "
                        "-cl-kernel-arg-info -cl-uniform-work-group-size "
                        "-cl-no-subgroup-ifp -cl-strict-aliasing -g";
    notified = 0;
    CHECK_EQ(clBuildProgram(program, 0, NULL, every, notify, &notified),
             CL_SUCCESS);
    CHECK_EQ(notified, 1);
    check_record(program, device, CL_BUILD_SUCCESS, every,
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_record(program, subs[0], CL_BUILD_SUCCESS, every,
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_names(program, "saxpy;nothing", 2);
    size_t globals = 99;
    CHECK_EQ(clGetProgramBuildInfo(
                 program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                 sizeof(globals), &globals, NULL), CL_SUCCESS);
    CHECK_EQ(globals, 0);
    /* -cl-opt-disable alone (it takes -O0) on one device: the other keeps
     * its build. */
    CHECK_EQ(clBuildProgram(program, 1, &subs[0], "-cl-opt-disable", NULL,
                            NULL), CL_SUCCESS);
    check_record(program, subs[0], CL_BUILD_SUCCESS, "-cl-opt-disable",
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_record(program, device, CL_BUILD_SUCCESS, every,
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    /* Built for the device alone: subs[0], its sub-device in the program,
     * gets that build too (the CTS's device_partition builds for a parent
     * and runs on its sub-devices). */
    CHECK_EQ(clBuildProgram(program, 1, &device, "-DPARENT", NULL, NULL),
             CL_SUCCESS);
    check_record(program, device, CL_BUILD_SUCCESS, "-DPARENT",
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_record(program, subs[0], CL_BUILD_SUCCESS, "-DPARENT",
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* The words each entry point refuses, with its code. */
static void check_options_refused(void)
{
    cl_program program = from_source(saxpy);
    static const char *never[] = {"-cl-bogus", "-D", "-I", "-cl-std=CL2.0",
                                  "-cl-std=CL9.9", "-create-library",
                                  "-enable-link-options", "-O2", "-D=1",
                                  "-D \"X=1", "-DX='1", "-I \"dir"};
    for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++) {
        /* "CL_INVALID_BUILD_OPTIONS if the build options specified by
         * options are invalid" */
        CHECK_EQ(clBuildProgram(program, 0, NULL, never[i], NULL, NULL),
                 CL_INVALID_BUILD_OPTIONS);
        CHECK_EQ(clCompileProgram(program, 0, NULL, never[i], 0, NULL, NULL,
                                  NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
    }
    check_record(program, device, CL_BUILD_NONE, "",
                 CL_PROGRAM_BINARY_TYPE_NONE);
    CHECK_EQ(clCompileProgram(program, 0, NULL, "-cl-std=CL1.1 -DX", 0, NULL,
                              NULL, NULL, NULL), CL_SUCCESS);
    static const char *not_linker[] = {"-D X", "-I .", "-cl-std=CL1.2", "-w",
                                       "-cl-kernel-arg-info", "-g",
                                       "-cl-bogus", "-enable-link-options"};
    for (size_t i = 0; i < sizeof(not_linker) / sizeof(not_linker[0]); i++) {
        cl_int err = 1;
        CHECK(clLinkProgram(context, 0, NULL, not_linker[i], 1, &program,
                            NULL, NULL, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_LINKER_OPTIONS);
    }
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

static void check_syntax_error(void)
{
    cl_program program = from_source("kernel void k(global int *p)\n"
                                     "{\n"
                                     "    p[0] = ;\n"
                                     "}\n");
    notified = 0;
    /* CL_BUILD_PROGRAM_FAILURE "if there is a failure to build the program
     * executable", the callback called all the same. */
    CHECK_EQ(clBuildProgram(program, 0, NULL, "-w", notify, &notified),
             CL_BUILD_PROGRAM_FAILURE);
    CHECK_EQ(notified, 1);
    check_record(program, device, CL_BUILD_ERROR, "-w",
                 CL_PROGRAM_BINARY_TYPE_NONE);
    char *log = build_string(program, device, CL_PROGRAM_BUILD_LOG);
    CHECK(strstr(log, "program.cl:3:12: error: expected expression"));
    CHECK(!strstr(log, "/tmp"));
    free(log);
    size_t n;
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
                              NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clCompileProgram(program, 1, &subs[0], NULL, 0, NULL, NULL,
                              NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
    check_record(program, subs[0], CL_BUILD_ERROR, "",
                 CL_PROGRAM_BINARY_TYPE_NONE);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* Functions taking and returning wide vectors, and builtins on them: an
 * empty build log (clang would note "AVX vector argument ... changes the
 * ABI" for each, about an ABI no call of the program crosses). */
static void check_quiet_vectors(void)
{
    cl_program program = from_source(
        "float8 twice(float8 a) { return a * 2; }\n"
        "double16 more(double16 a, double16 b) { return fma(a, b, a); }\n"
        "kernel void k(global float8 *p, global double16 *q)\n"
        "{ p[0] = twice(p[0]) + sin(p[1]); q[0] = more(q[0], q[1]); }\n");
    CHECK_EQ(clBuildProgram(program, 1, &device, "", NULL, NULL), CL_SUCCESS);
    char *log = build_string(program, device, CL_PROGRAM_BUILD_LOG);
    CHECK_STR(log, "");
    free(log);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* A kernel calling 25 functions nobody defines: a link error naming them
 * (lld, in the compiler process, stops at its limit of 20 errors: a
 * failed job, not a dead process), then a build that links (a new source:
 * the cache has not seen it). */
static void check_link_error(void)
{
    char text[2048];
    size_t at = 0;
    for (int i = 0; i < 25; i++)
        at += (size_t)snprintf(text + at, sizeof(text) - at,
                               "void undefined_%d(global int *p);\n", i);
    at += (size_t)snprintf(text + at, sizeof(text) - at,
                           "kernel void k(global int *p) {");
    for (int i = 0; i < 25; i++)
        at += (size_t)snprintf(text + at, sizeof(text) - at,
                               " undefined_%d(p);", i);
    snprintf(text + at, sizeof(text) - at, " }\n");
    cl_program program = from_source(text);
    CHECK_EQ(clBuildProgram(program, 1, &device, "", NULL, NULL),
             CL_BUILD_PROGRAM_FAILURE);
    char *log = build_string(program, device, CL_PROGRAM_BUILD_LOG);
    CHECK(strstr(log, "undefined_0"));
    CHECK(!strstr(log, "died"));
    free(log);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    program = from_source("kernel void k(global int *p) { p[0] = 25; }\n");
    CHECK_EQ(clBuildProgram(program, 1, &device, "", NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* clCompileProgram with headers named with directories, then links. */
/* clLinkProgram takes any number of input programs: the kernel, its
 * library and 198 empty objects (the CTS links 256 in
 * multi_file_libraries; refcl once stopped at 64). */
static void check_many_inputs(cl_program kernel, cl_program library)
{
    enum { COUNT = 200 };
    cl_program empty = from_source("/* nothing */\n");
    CHECK_EQ(clCompileProgram(empty, 0, NULL, NULL, 0, NULL, NULL, NULL,
                              NULL), CL_SUCCESS);
    cl_program inputs[COUNT] = {kernel, library};
    for (size_t i = 2; i < COUNT; i++)
        inputs[i] = empty;
    cl_int err = 1;
    cl_program exe = clLinkProgram(context, 0, NULL, NULL, COUNT, inputs,
                                   NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_record(exe, device, CL_BUILD_SUCCESS, "",
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_names(exe, "k", 1);
    CHECK_EQ(clReleaseProgram(exe), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(empty), CL_SUCCESS);
}

static void check_compile_link(void)
{
    cl_program header = from_source("#define SCALE 3\n");
    cl_program helper = from_source("#include \"inc/scale.h\"\n"
                                    "int scale(int x) { return SCALE * x; }\n");
    cl_program kernel = from_source("int scale(int x);\n"
                                    "kernel void k(global int *p)\n"
                                    "{ p[0] = scale(rotate(p[0], 0)); }\n");
    const char *names[] = {"inc/scale.h"};
    CHECK_EQ(clCompileProgram(helper, 0, NULL, NULL, 1, &header, names,
                              NULL, NULL), CL_SUCCESS);
    check_record(helper, device, CL_BUILD_SUCCESS, "",
                 CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    size_t n;
    CHECK_EQ(clGetProgramInfo(helper, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
                              NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    /* A header named as the build's own source replaces nothing: the
     * program's source is compiled, and the log says why the header was
     * left out. */
    cl_program planted = from_source("#error planted\n");
    cl_program with_own[] = {planted, header};
    const char *own[] = {"program.cl", "inc/scale.h"};
    CHECK_EQ(clCompileProgram(helper, 0, NULL, NULL, 2, with_own, own, NULL,
                              NULL), CL_SUCCESS);
    char *note = build_string(helper, device, CL_PROGRAM_BUILD_LOG);
    CHECK(note && strstr(note, "was not written"));
    free(note);
    CHECK_EQ(clReleaseProgram(planted), CL_SUCCESS);
    CHECK_EQ(clCompileProgram(helper, 0, NULL, NULL, 1, &header, names,
                              NULL, NULL), CL_SUCCESS);
    /* Without its header the include is not found. */
    cl_program alone = from_source("#include \"inc/scale.h\"\n");
    CHECK_EQ(clCompileProgram(alone, 0, NULL, NULL, 0, NULL, NULL, NULL,
                              NULL), CL_COMPILE_PROGRAM_FAILURE);
    char *log = build_string(alone, device, CL_PROGRAM_BUILD_LOG);
    CHECK(strstr(log, "program.cl:1:10: fatal error: 'inc/scale.h' file not "
                      "found"));
    free(log);
    CHECK_EQ(clCompileProgram(kernel, 0, NULL, "-cl-kernel-arg-info", 0,
                              NULL, NULL, NULL, NULL), CL_SUCCESS);

    /* -create-library, then an executable of the library and the kernel. */
    cl_int err = 1;
    cl_program library = clLinkProgram(
        context, 0, NULL, "-create-library -enable-link-options", 1, &helper,
        NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_record(library, device, CL_BUILD_SUCCESS,
                 "-create-library -enable-link-options",
                 CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program both[2] = {kernel, library};
    notified = 0;
    const char *link_options = "-cl-denorms-are-zero -cl-no-signed-zeros "
                               "-cl-unsafe-math-optimizations "
                               "-cl-finite-math-only -cl-fast-relaxed-math "
                               "-cl-no-subgroup-ifp";
    cl_program exe = clLinkProgram(context, 1, &subs[0], link_options, 2,
                                   both, notify, &notified, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(notified, 1);
    check_record(exe, subs[0], CL_BUILD_SUCCESS, link_options,
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_names(exe, "k", 1);
    /* A clean link says nothing (the builtins it took, rotate, included). */
    log = build_string(exe, subs[0], CL_PROGRAM_BUILD_LOG);
    CHECK_EQ(strlen(log), 0);
    free(log);
    /* CL_INVALID_OPERATION "if program was not created with
     * clCreateProgramWithSource, clCreateProgramWithIL or
     * clCreateProgramWithBinary"; "if program has no source or IL". */
    CHECK_EQ(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clCompileProgram(exe, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
             CL_INVALID_OPERATION);
    cl_uint devices = 0;
    CHECK_EQ(clGetProgramInfo(exe, CL_PROGRAM_NUM_DEVICES, sizeof(devices),
                              &devices, NULL), CL_SUCCESS);
    CHECK_EQ(devices, 1);

    /* The kernel without its helper: "undefined reference". */
    cl_program lonely = clLinkProgram(context, 0, NULL, NULL, 1, &kernel,
                                      NULL, NULL, &err);
    CHECK_EQ(err, CL_LINK_PROGRAM_FAILURE);
    CHECK(lonely != NULL);
    if (lonely) {
        check_record(lonely, device, CL_BUILD_ERROR, "",
                     CL_PROGRAM_BINARY_TYPE_NONE);
        log = build_string(lonely, device, CL_PROGRAM_BUILD_LOG);
        /* ld.bfd quotes `scale', gold 'scale'; lld (in refcl-compiler)
         * says "undefined symbol: scale". */
        CHECK(strstr(log, "undefined reference to `scale'") ||
              strstr(log, "undefined reference to 'scale'") ||
              strstr(log, "undefined symbol: scale\n"));
        free(log);
        CHECK_EQ(clReleaseProgram(lonely), CL_SUCCESS);
    }
    /* A program with only source: CL_INVALID_OPERATION. */
    CHECK(clLinkProgram(context, 0, NULL, NULL, 1, &header, NULL, NULL,
                        &err) == NULL);
    CHECK_EQ(err, CL_INVALID_OPERATION);

    check_many_inputs(kernel, library);

    cl_program all[] = {header, helper, kernel, alone, library, exe};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        CHECK_EQ(clReleaseProgram(all[i]), CL_SUCCESS);
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* @p bytes with a fresh checksum, as a well-formed container would be. */
static void reseal(unsigned char *bytes, size_t size)
{
    uint64_t h = fnv1a(bytes, size - 8);
    for (int i = 0; i < 8; i++)
        bytes[size - 8 + i] = (unsigned char)(h >> (8 * i));
}

static void check_refused(const unsigned char *bytes, size_t size)
{
    cl_int err = 1, status[2] = {7, 7};
    const unsigned char *binaries[2] = {bytes, bytes};
    size_t lengths[2] = {size, size};
    cl_device_id two[2] = {device, subs[0]};
    CHECK(clCreateProgramWithBinary(context, 2, two, lengths, binaries,
                                    status, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_BINARY);
    CHECK_EQ(status[0], CL_INVALID_BINARY);
    CHECK_EQ(status[1], CL_INVALID_BINARY);
}

/* The x86-64 psABI level of this CPU, as the test's own compiler sees it
 * (refcl asks CPUID itself). */
static const char *host_cpu(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx2"))
        return "x86-64-v4";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("bmi2"))
        return "x86-64-v3";
    if (__builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt"))
        return "x86-64-v2";
    return "x86-64";
#else
    return "armv8-a";
#endif
}

/* The container names the CPU after the target; one with features this
 * host lacks is refused: "CL_INVALID_BINARY if an invalid program binary
 * was encountered for any device". */
static void check_cpu(unsigned char *bytes, size_t size)
{
    /* REFCL_CPU, when set (to a level this host has), is the host's. */
    const char *wanted = getenv("REFCL_CPU");
    const char *cpu = wanted && *wanted ? wanted : host_cpu();
    size_t target = bytes[24], at = 28 + target + 4;
    CHECK_EQ(bytes[28 + target], strlen(cpu));
    CHECK(!memcmp(bytes + at, cpu, strlen(cpu)));
    if (strncmp(cpu, "x86-64-v", 8))
        return;
    /* The next level up, or one no CPU has yet. */
    unsigned char was = bytes[at + 8];
    bytes[at + 8] = was == '4' ? '5' : (unsigned char)(was + 1);
    reseal(bytes, size);
    check_refused(bytes, size);
    bytes[at + 8] = was;
    reseal(bytes, size);
}

static void *build_in_thread(void *program)
{
    static cl_int status;
    status = clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    return &status;
}

/* While clang runs, the build is CL_BUILD_IN_PROGRESS, a kernel cannot be
 * made ("CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
 * executable for program") and another build is refused
 * ("CL_INVALID_OPERATION if the build of a program executable for any of
 * the devices listed in device_list by a previous call to clBuildProgram
 * for program has not completed"). The source is new to the cache, so
 * clang runs for a tenth of a second at least. */
static void check_in_progress(void)
{
    char source[sizeof(saxpy) + 64];
    snprintf(source, sizeof(source), "/* %ld %ld */\n%s", (long)getpid(),
             (long)time(NULL), saxpy);
    cl_program program = from_source(source);
    pthread_t builder;
    CHECK_EQ(pthread_create(&builder, NULL, build_in_thread, program), 0);
    cl_build_status status = CL_BUILD_NONE;
    int seen = 0;
    do {
        CHECK_EQ(clGetProgramBuildInfo(program, device,
                                       CL_PROGRAM_BUILD_STATUS,
                                       sizeof(status), &status, NULL),
                 CL_SUCCESS);
        if (status == CL_BUILD_IN_PROGRESS && !seen++) {
            cl_int err = 1;
            CHECK(clCreateKernel(program, "saxpy", &err) == NULL);
            CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
            CHECK_EQ(clBuildProgram(program, 1, &device, NULL, NULL, NULL),
                     CL_INVALID_OPERATION);
        }
    } while (status == CL_BUILD_NONE || status == CL_BUILD_IN_PROGRESS);
    void *result;
    CHECK_EQ(pthread_join(builder, &result), 0);
    CHECK_EQ(*(cl_int *)result, CL_SUCCESS);
    CHECK_EQ(status, CL_BUILD_SUCCESS);
    CHECK(seen > 0);
    check_names(program, "saxpy;nothing", 2);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* build -> binaries -> a program with them -> build -> kernel names. */
static void check_binaries(void)
{
    cl_program program = from_source(saxpy);
    CHECK_EQ(clBuildProgram(program, 1, &device, "-cl-std=CL3.0", NULL, NULL),
             CL_SUCCESS);
    size_t sizes[2] = {99, 99};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(sizes),
                              sizes, NULL), CL_SUCCESS);
    CHECK(sizes[0] > 64);
    CHECK_EQ(sizes[1], sizes[0]); /* subs[0]: the device's build serves it */
    unsigned char *bytes = malloc(sizes[0]);
    unsigned char *out[2] = {bytes, NULL};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(out), out,
                              NULL), CL_SUCCESS);
    CHECK(!memcmp(bytes, "REFCLBIN", 8));

    cl_int err = 1, status[2] = {7, 7};
    const unsigned char *binaries[2] = {bytes, bytes};
    cl_device_id two[2] = {device, subs[0]};
    size_t lengths[2] = {sizes[0], 0};
    cl_program copy = clCreateProgramWithBinary(context, 2, two, lengths,
                                                binaries, status, &err);
    CHECK_EQ(err, CL_INVALID_VALUE); /* lengths[1] is zero */
    lengths[1] = sizes[0];
    copy = clCreateProgramWithBinary(context, 2, two, lengths, binaries,
                                     status, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(status[0] == CL_SUCCESS && status[1] == CL_SUCCESS);
    /* "If build status ... is CL_BUILD_NONE, an empty string is
     * returned"; the binary's type is known already. */
    check_record(copy, subs[0], CL_BUILD_NONE, "",
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK_EQ(clGetProgramInfo(copy, CL_PROGRAM_NUM_KERNELS, sizeof(sizes),
                              sizes, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_EQ(clCompileProgram(copy, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clBuildProgram(copy, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    check_names(copy, "saxpy;nothing", 2);
    check_record(copy, subs[0], CL_BUILD_SUCCESS, "",
                 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK_EQ(clReleaseProgram(copy), CL_SUCCESS);

    /* Garbage, truncated, damaged, another target's, another format's. */
    unsigned char garbage[64];
    for (size_t i = 0; i < sizeof(garbage); i++)
        garbage[i] = (unsigned char)(i * 37 + 11);
    check_refused(garbage, sizeof(garbage));
    check_refused(bytes, sizes[0] - 1);
    check_refused(bytes, 12);
    bytes[sizes[0] / 2] ^= 0x40;
    check_refused(bytes, sizes[0]);
    bytes[sizes[0] / 2] ^= 0x40;
    /* The target, after magic and five 32-bit fields. */
    CHECK(!memcmp(bytes + 28, "x86_64", 6) || !memcmp(bytes + 28, "aarch64",
                                                       7));
    unsigned char was = bytes[28];
    bytes[28] = 'm';
    reseal(bytes, sizes[0]);
    check_refused(bytes, sizes[0]);
    bytes[28] = was;
    check_cpu(bytes, sizes[0]);
    bytes[8] = 3; /* format version */
    reseal(bytes, sizes[0]);
    check_refused(bytes, sizes[0]);
    free(bytes);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* A compiled object's binary links into an executable elsewhere. */
static void check_object_binary(void)
{
    cl_program program = from_source(saxpy);
    CHECK_EQ(clCompileProgram(program, 1, &subs[0], NULL, 0, NULL, NULL,
                              NULL, NULL), CL_SUCCESS);
    size_t sizes[2] = {0, 0};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(sizes),
                              sizes, NULL), CL_SUCCESS);
    CHECK_EQ(sizes[0], 0);
    CHECK(sizes[1] > 64);
    unsigned char *bytes = malloc(sizes[1]);
    unsigned char *out[2] = {NULL, bytes};
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(out), out,
                              NULL), CL_SUCCESS);
    cl_int err = 1, status = 7;
    const unsigned char *binaries[1] = {bytes};
    cl_program object = clCreateProgramWithBinary(context, 1, &device,
                                                  &sizes[1], binaries,
                                                  &status, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_record(object, device, CL_BUILD_NONE, "",
                 CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program exe = clLinkProgram(context, 0, NULL, NULL, 1, &object, NULL,
                                   NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    check_names(exe, "saxpy;nothing", 2);
    CHECK_EQ(clReleaseProgram(exe), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(object), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    free(bytes);
}

/* Programs without a kernel build, as the spec allows: helper functions
 * alone, and nothing at all; they have no kernel to create. */
static void check_no_kernels(void)
{
    static const char *const sources[] = {
        "int twice(int x) { return 2 * x; }\n", ""};
    for (size_t i = 0; i < 2; i++) {
        cl_program program = from_source(sources[i]);
        CHECK_EQ(clBuildProgram(program, 0, NULL, "", NULL, NULL),
                 CL_SUCCESS);
        check_names(program, "", 0);
        cl_uint count = 99;
        CHECK_EQ(clCreateKernelsInProgram(program, 0, NULL, &count),
                 CL_SUCCESS);
        CHECK_EQ(count, 0);
        cl_int err = 1;
        CHECK(clCreateKernel(program, "twice", &err) == NULL);
        CHECK_EQ(err, CL_INVALID_KERNEL_NAME);
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_device_halves(device, subs))
        return 1;
    if (!test_compiler_available(device))
        return TEST_SKIP;
    cl_device_id both[2] = {device, subs[0]};
    cl_int err;
    context = clCreateContext(NULL, 2, both, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);

    check_build();
    check_in_progress();
    check_options_refused();
    check_syntax_error();
    check_quiet_vectors();
    check_link_error();
    check_compile_link();
    check_binaries();
    check_object_binary();
    check_no_kernels();

    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(subs[0]), CL_SUCCESS);
    CHECK_EQ(clReleaseDevice(subs[1]), CL_SUCCESS);
    return TEST_RESULT();
}

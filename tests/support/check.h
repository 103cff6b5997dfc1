/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Minimal assertions for refcl's tests: every check names its expression and
 * both values, counts failures, and the test exits non-zero if any failed.
 */
#ifndef REFCL_TEST_CHECK_H
#define REFCL_TEST_CHECK_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Exit code telling CTest the test cannot run here (SKIP_RETURN_CODE). */
#define TEST_SKIP 77

/** Failed checks so far; atomic, so CHECK works from any thread. */
extern _Atomic int test_failures;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            test_failures++;                                                 \
        }                                                                    \
    } while (0)

/** Compares two integers of any width; prints both on mismatch. */
#define CHECK_EQ(actual, expected)                                           \
    do {                                                                     \
        long long check_a_ = (long long)(actual);                            \
        long long check_e_ = (long long)(expected);                          \
        if (check_a_ != check_e_) {                                          \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n",      \
                    __FILE__, __LINE__, #actual, check_a_, #expected,        \
                    check_e_);                                               \
            test_failures++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_STR(actual, expected)                                          \
    do {                                                                     \
        const char *check_a_ = (actual);                                     \
        const char *check_e_ = (expected);                                   \
        if (!check_a_ || strcmp(check_a_, check_e_) != 0) {                  \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n",        \
                    __FILE__, __LINE__, #actual,                             \
                    check_a_ ? check_a_ : "(null)", check_e_);               \
            test_failures++;                                                 \
        }                                                                    \
    } while (0)

/** The test's exit code: 0 if every check passed. */
#define TEST_RESULT() (test_failures ? 1 : 0)

/**
 * The first platform and its CPU device, or a message and false.
 * Every test starts with it.
 */
static inline int test_first_device(cl_platform_id *platform,
                                    cl_device_id *device)
{
    if (clGetPlatformIDs(1, platform, NULL) == CL_SUCCESS &&
        clGetDeviceIDs(*platform, CL_DEVICE_TYPE_CPU, 1, device, NULL) ==
            CL_SUCCESS)
        return 1;
    fprintf(stderr, "no refcl platform or device\n");
    return 0;
}

/**
 * @p device cut in two sub-devices of two compute units each
 * (CL_DEVICE_PARTITION_EQUALLY, 2: the tests that need them run on a
 * synthetic machine of four), or a message and false.
 */
static inline int test_device_halves(cl_device_id device,
                                     cl_device_id halves[2])
{
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    cl_uint count = 0;
    if (clCreateSubDevices(device, equally, 2, halves, &count) ==
            CL_SUCCESS &&
        count == 2)
        return 1;
    fprintf(stderr, "no two halves of the device\n");
    return 0;
}

/**
 * A context on @p device alone and a queue on it with @p properties (0: in
 * order, no profiling), or a message and false.
 */
static inline int test_context_queue(cl_device_id device,
                                     cl_command_queue_properties properties,
                                     cl_context *context,
                                     cl_command_queue *queue)
{
    cl_int err;
    *context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateContext: %d\n", err);
        return 0;
    }
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    *queue = clCreateCommandQueueWithProperties(*context, device, list, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateCommandQueueWithProperties: %d\n", err);
        clReleaseContext(*context);
        return 0;
    }
    return 1;
}

/** Whether @p device reads SPIR-V (CL_DEVICE_IL_VERSION not ""); if not,
 *  says so (the caller skips). */
static inline bool test_device_reads_il(cl_device_id device)
{
    char versions[128] = "";
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof(versions),
                             versions, NULL), CL_SUCCESS);
    if (!versions[0])
        fprintf(stderr, "the device reports no IL\n");
    return versions[0] != 0;
}

/** Whether @p device lists extension @p name in CL_DEVICE_EXTENSIONS. */
static inline bool test_device_has_extension(cl_device_id device,
                                             const char *name)
{
    char extensions[4096] = "";
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(extensions),
                             extensions, NULL), CL_SUCCESS);
    size_t len = strlen(name);
    for (const char *at = extensions; (at = strstr(at, name)); at += len)
        if ((at == extensions || at[-1] == ' ') && (!at[len] || at[len] == ' '))
            return true;
    return false;
}

/** The SPIR-V file REFCL_TEST_SPIRV names (at most 64 KiB; *@p size 0
 *  when it cannot be read), to free. */
static inline unsigned char *test_read_spirv(size_t *size)
{
    const char *path = getenv("REFCL_TEST_SPIRV");
    FILE *f = path ? fopen(path, "rb") : NULL;
    unsigned char *bytes = malloc(1 << 16);
    *size = f && bytes ? fread(bytes, 1, 1 << 16, f) : 0;
    if (f)
        fclose(f);
    return bytes;
}

/** A program of the @p size bytes of SPIR-V at @p spirv, which must be
 *  made. */
static inline cl_program test_il_program(cl_context context,
                                         const unsigned char *spirv,
                                         size_t size)
{
    cl_int err = 1;
    cl_program program = clCreateProgramWithIL(context, spirv, size, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return program;
}

/** @p program, from IL, compiled and then linked alone: the link's
 *  program (NULL if the link failed, which is checked). */
static inline cl_program test_il_compile_link(cl_context context,
                                              cl_program program)
{
    CHECK_EQ(clCompileProgram(program, 0, NULL, NULL, 0, NULL, NULL, NULL,
                              NULL), CL_SUCCESS);
    cl_int err = 1;
    cl_program linked = clLinkProgram(context, 0, NULL, NULL, 1, &program,
                                      NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return linked;
}

/** A SPIR-V test's start: the first device, a context and a queue on it,
 *  and the module REFCL_TEST_SPIRV names (owned) in @p spirv, @p size.
 *  @return 0, TEST_SKIP where the device reads no IL, or 1. */
static inline int test_il_start(cl_device_id *device, cl_context *context,
                                cl_command_queue *queue,
                                unsigned char **spirv, size_t *size)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, device))
        return 1;
    if (!test_device_reads_il(*device))
        return TEST_SKIP;
    *spirv = test_read_spirv(size);
    CHECK(*size > 20 && *size < (1 << 16));
    cl_int err = 1;
    *context = clCreateContext(NULL, 1, device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    *queue = clCreateCommandQueueWithProperties(*context, *device, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return 0;
}

/** A buffer that must be created: clCreateBuffer's arguments. */
static inline cl_mem test_buffer(cl_context context, cl_mem_flags flags,
                                 size_t size, void *host_ptr)
{
    cl_int err = 1;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(mem != NULL);
    return mem;
}

/** A sub-buffer of @p parent's bytes [@p origin, @p origin + @p size) that
 *  must be created. */
static inline cl_mem test_sub_buffer(cl_mem parent, cl_mem_flags flags,
                                     size_t origin, size_t size)
{
    cl_buffer_region region = {origin, size};
    cl_int err = 1;
    cl_mem sub = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return sub;
}

/** Pointer-sized word @p index of a CL object: 0 dispatch, 1 disp_data. */
static inline void *test_object_word(const void *object, int index)
{
    void *value;
    memcpy(&value, (const char *)object + index * sizeof(void *),
           sizeof(value));
    return value;
}

/**
 * The threads of this process that can still run, or -1: /proc/self/task
 * less the tasks already exiting. pthread_join returns when the kernel
 * clears the thread's TID (CLONE_CHILD_CLEARTID, in exit_mm), but
 * /proc/self/task lists the thread until the kernel releases it at the very
 * end of its exit (release_task). In between, which can outlast
 * pthread_join's return when the exiting thread loses its CPU or waits for
 * the mmap lock, a joined thread still shows there. PF_EXITING is set at
 * the start of that exit, before the TID is cleared: every joined thread
 * has it, and no thread that may still run code of the process.
 */
int test_thread_count(void);

/**
 * test_thread_count to compare later counts with. ThreadSanitizer starts a
 * thread of its own with the first thread created, so one is created and
 * joined first.
 */
int test_thread_baseline(void);

/** An event callback (for CL_COMPLETE) that signals test_signal_wait;
 *  it checks that the status is CL_COMPLETE. */
void CL_CALLBACK test_signal_complete(cl_event event, cl_int status,
                                      void *data);

/** Waits for the next test_signal_complete, on any thread. */
void test_signal_wait(void);

/** The emulator running this test (REFCL_TEST_EMULATOR, set by CTest in a
 *  cross-build: qemu-user), or NULL when it runs natively. */
const char *test_emulator(void);

/** True if an address-space limit (RLIMIT_AS) can make this process run
 *  out of memory: not under a sanitizer or valgrind, which reserve address
 *  space wholesale, nor under qemu-user, which keeps the limit for itself
 *  unapplied; says why on stderr when not. */
bool test_address_limit_usable(void);

/** Bytes mapped by this process (/proc/self/statm), or 0. */
size_t test_mapped_bytes(void);

/** True if this process may bind a thread to one CPU (containers and
 *  schedulers may forbid it): tried on a thread of its own. */
int test_binding_allowed(void);

/** True if long double has x87's 64-bit mantissa here, which references
 *  of floating-point results rely on; valgrind runs long double arithmetic
 *  in double precision (and 1/0.0L is not inf there). */
static inline bool test_long_double_extended(void)
{
    volatile long double one = 1, tiny = 0x1p-63L, zero = 0;
    return one + tiny != one && one / zero > 0x1p16383L;
}

/** True if @p device reports a compiler; says so on stderr when not (the
 *  test then has nothing to do: REFCL_COMPILER=0, or none installed). */
static inline bool test_compiler_available(cl_device_id device)
{
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(compiler),
                    &compiler, NULL);
    if (!compiler)
        fprintf(stderr, "the device reports no compiler: nothing to test\n");
    return compiler;
}

/** @p device's processing units if work on its EQUALLY 1 sub-devices can be
 *  checked to run on their own unit, else 0: the device has 2 units or more,
 *  REFCL_BIND is not 0 and this process may bind threads. */
static inline cl_uint test_bindable_units(cl_device_id device)
{
    cl_uint units = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units),
                    &units, NULL);
    const char *bind = getenv("REFCL_BIND");
    bool testable = units >= 2 && !(bind && strcmp(bind, "0") == 0) &&
                    test_binding_allowed();
    return testable ? units : 0;
}

/** A handle refcl never handed out: points at zeroed memory. */
void *test_zeroed_handle(void);

/** A handle refcl never handed out: points at unmapped memory. */
void *test_unmapped_handle(void);

/** True when the test runs through an ICD loader, not linked to refcl. */
static inline int test_through_loader(void)
{
#ifdef REFCL_TEST_DIRECT
    return 0;
#else
    return 1;
#endif
}

/**
 * Fills @p bad with handles no entry point may take for a live object of
 * its type: @p released, @p wrong and @p wrong_too (live objects of other
 * types), then, linked directly (a loader reads through the handle first),
 * NULL, a zeroed and an unmapped handle.
 * @return how many: 3 through a loader, else 6.
 */
static inline int test_bad_handles(void *bad[6], void *released, void *wrong,
                                   void *wrong_too)
{
    bad[0] = released;
    bad[1] = wrong;
    bad[2] = wrong_too;
    if (test_through_loader())
        return 3;
    bad[3] = NULL;
    bad[4] = test_zeroed_handle();
    bad[5] = test_unmapped_handle();
    return 6;
}

/** Sets the trailing checksum of a refcl binary or cache entry of @p size
 *  bytes: 64-bit FNV-1a of every byte before it, little-endian (the formats
 *  compiler/binary.c and compiler/cache.c document), after a test has
 *  altered it as an attacker would. */
static inline void test_checksum_fix(unsigned char *bytes, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < size; i++)
        h = (h ^ bytes[i]) * 0x100000001b3ull;
    for (int i = 0; i < 8; i++)
        bytes[size - 8 + i] = (unsigned char)(h >> (8 * i));
}

/** The whole file @p path (malloc'd), its size in @p size; exits the test
 *  when it cannot be read. */
static inline unsigned char *test_file_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *bytes = NULL;
    long end = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        end = ftell(f);
    if (end >= 0 && (bytes = malloc((size_t)end + 1)) && !fseek(f, 0, SEEK_SET) &&
        fread(bytes, 1, (size_t)end, f) == (size_t)end) {
        fclose(f);
        *size = (size_t)end;
        return bytes;
    }
    fprintf(stderr, "%s: cannot be read\n", path);
    exit(1);
}

#endif /* REFCL_TEST_CHECK_H */

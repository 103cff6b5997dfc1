/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_bench's figures of work on the device (bench/README.md):
 * an empty native kernel from enqueue to completion, and a saxpy over
 * 64 Mi floats — through the ICD (refcl's built-in refcl_saxpy_float, or
 * the same kernel built from OpenCL C where the ICD has a compiler), on the
 * whole device and on sub-devices of 1, 2, 4, ... compute units — next to
 * the same loop in plain C on one thread and on one thread per CPU; and
 * what a kernel object costs (create + release, setting its arguments);
 * and, from OpenCL C on every ICD, the saxpy and a barrier reduction (16 Mi
 * uints in groups of 256), the reduction next to the same sums in C on one
 * thread per CPU.
 *
 * Built with -O3 like refcl's built-in kernels, so that the C loop and the
 * built-in kernel are the same code compiled the same way.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

/* ---- native kernels ------------------------------------------------------ */

static cl_command_queue native_queue;

static void CL_CALLBACK nothing(void *args)
{
    (void)args;
}

static cl_int native_setup(const struct bench *b, int units)
{
    (void)units;
    cl_device_exec_capabilities caps = 0;
    cl_int err = clGetDeviceInfo(b->device, CL_DEVICE_EXECUTION_CAPABILITIES,
                                 sizeof(caps), &caps, NULL);
    if (err == CL_SUCCESS && !(caps & CL_EXEC_NATIVE_KERNEL))
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS)
        native_queue = clCreateCommandQueueWithProperties(
            b->context, b->device, NULL, &err);
    return err;
}

/* Enqueue to completion: the command, then clFinish. */
static cl_int native_loop(const struct bench *b, long n)
{
    (void)b;
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueNativeKernel(native_queue, nothing, NULL, 0, 0,
                                           NULL, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(native_queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static void native_teardown(void)
{
    if (native_queue)
        clReleaseCommandQueue(native_queue);
    native_queue = NULL;
}

const struct work bench_native_latency = {native_setup, native_loop,
                                          native_teardown, 0, 0};

/* ---- saxpy through the ICD --------------------------------------------- */

#define SAXPY_BYTES (3.0 * sizeof(float) * BENCH_SAXPY_N)

static const char saxpy_source[] =
    "kernel void saxpy(float a, global const float *x, global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + y[i];\n"
    "}\n";

static struct {
    cl_device_id sub;        /* the sub-device, or NULL */
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel;
    cl_mem x, y;
} sx;

static bool lists_builtin(cl_device_id device, const char *name)
{
    char names[4096] = "";
    clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS, sizeof(names), names,
                    NULL);
    for (char *item = strtok(names, ";"); item; item = strtok(NULL, ";"))
        if (strcmp(item, name) == 0)
            return true;
    return false;
}

/* Kernel @p name of @p source built for @p device with @p options, into
 * sx. */
static cl_int source_kernel(cl_device_id device, const char *source,
                            const char *options, const char *name)
{
    cl_int err;
    sx.program = clCreateProgramWithSource(sx.context, 1, &source, NULL,
                                           &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(sx.program, 1, &device, options, NULL, NULL);
    if (err == CL_SUCCESS)
        sx.kernel = clCreateKernel(sx.program, name, &err);
    return err;
}

/* refcl's built-in saxpy (unless @p from_source), else the same kernel
 * from OpenCL C. */
static cl_int saxpy_kernel(cl_device_id device, bool from_source)
{
    cl_int err;
    const char *name = "saxpy", *source = saxpy_source;
    if (from_source)
        return source_kernel(device, source, "", name);
    if (lists_builtin(device, "refcl_saxpy_float")) {
        name = "refcl_saxpy_float";
        sx.program = clCreateProgramWithBuiltInKernels(sx.context, 1, &device,
                                                       name, &err);
    } else {
        sx.program =
            clCreateProgramWithSource(sx.context, 1, &source, NULL, &err);
        if (err == CL_SUCCESS)
            err = clBuildProgram(sx.program, 1, &device, "", NULL, NULL);
    }
    if (err == CL_SUCCESS)
        sx.kernel = clCreateKernel(sx.program, name, &err);
    return err;
}

/* The whole device, or a sub-device of @p units compute units. */
static cl_int saxpy_device(const struct bench *b, int units,
                           cl_device_id *device)
{
    *device = b->device;
    if (units == 0 || (cl_uint)units == b->units)
        return CL_SUCCESS;
    if ((cl_uint)units > b->units)
        return BENCH_NOT_HERE;
    const cl_device_partition_property counts[] = {
        CL_DEVICE_PARTITION_BY_COUNTS, units,
        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_int err = clCreateSubDevices(b->device, counts, 1, &sx.sub, NULL);
    *device = sx.sub;
    return err;
}

/* The saxpy's three arguments: a, x and y. */
static cl_int saxpy_set_args(float a)
{
    cl_int err = clSetKernelArg(sx.kernel, 0, sizeof(a), &a);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(sx.kernel, 1, sizeof(cl_mem), &sx.x);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(sx.kernel, 2, sizeof(cl_mem), &sx.y);
    return err;
}

static cl_int saxpy_setup_as(const struct bench *b, int units,
                             bool from_source)
{
    cl_device_id device;
    cl_int err = saxpy_device(b, units, &device);
    if (err == CL_SUCCESS)
        sx.context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        sx.queue = clCreateCommandQueueWithProperties(sx.context, device,
                                                      NULL, &err);
    if (err == CL_SUCCESS)
        err = saxpy_kernel(device, from_source);
    size_t bytes = BENCH_SAXPY_N * sizeof(float);
    if (err == CL_SUCCESS)
        sx.x = clCreateBuffer(sx.context, CL_MEM_READ_ONLY, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        sx.y = clCreateBuffer(sx.context, CL_MEM_READ_WRITE, bytes, NULL,
                              &err);
    /* Written once, so that the timed runs touch memory that is there. */
    const float one = 1.0f, two = 2.0f, a = 0.5f;
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(sx.queue, sx.x, &one, sizeof(one), 0, bytes,
                                  0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(sx.queue, sx.y, &two, sizeof(two), 0, bytes,
                                  0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(sx.queue);
    return err == CL_SUCCESS ? saxpy_set_args(a) : err;
}

static cl_int saxpy_setup(const struct bench *b, int units)
{
    return saxpy_setup_as(b, units, false);
}

static cl_int saxpy_source_setup(const struct bench *b, int units)
{
    return saxpy_setup_as(b, units, true);
}

/* One saxpy over the 64 Mi floats, completed; the ICD picks the local
 * size. */
static cl_int saxpy_loop(const struct bench *b, long n)
{
    (void)b;
    const size_t global = BENCH_SAXPY_N;
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueNDRangeKernel(sx.queue, sx.kernel, 1, NULL,
                                            &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(sx.queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static void saxpy_teardown(void)
{
    if (sx.x)
        clReleaseMemObject(sx.x);
    if (sx.y)
        clReleaseMemObject(sx.y);
    if (sx.kernel)
        clReleaseKernel(sx.kernel);
    if (sx.program)
        clReleaseProgram(sx.program);
    if (sx.queue)
        clReleaseCommandQueue(sx.queue);
    if (sx.context)
        clReleaseContext(sx.context);
    if (sx.sub)
        clReleaseDevice(sx.sub);
    memset(&sx, 0, sizeof(sx));
}

const struct work bench_saxpy_device = {saxpy_setup, saxpy_loop,
                                        saxpy_teardown, 0, SAXPY_BYTES};
const struct work bench_saxpy_source = {saxpy_source_setup, saxpy_loop,
                                        saxpy_teardown, 0, SAXPY_BYTES};

/* ---- reductions from OpenCL C ---------------------------------------------- */

/* A tree of barriers over __local memory, the hand-written reduction. */
#define TREE_SOURCE(T)                                                       \
    "kernel void reduce(global const " T " *src, global " T " *sums,\n"     \
    "                   local " T " *scratch)\n"                            \
    "{\n"                                                                   \
    "    size_t l = get_local_id(0);\n"                                     \
    "    scratch[l] = src[get_global_id(0)];\n"                             \
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                   \
    "    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"         \
    "        if (l < s)\n"                                                  \
    "            scratch[l] += scratch[l + s];\n"                           \
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"                               \
    "    }\n"                                                               \
    "    if (l == 0)\n"                                                     \
    "        sums[get_group_id(0)] = scratch[0];\n"                         \
    "}\n"

/* The float tree's work done by work_group_reduce_add (OpenCL C 3.0's
 * __opencl_c_work_group_collective_functions). */
static const char reduce_float_collective_source[] =
    "kernel void reduce(global const float *src, global float *sums,\n"
    "                   local float *unused)\n"
    "{\n"
    "    float sum = work_group_reduce_add(src[get_global_id(0)]);\n"
    "    if (get_local_id(0) == 0)\n"
    "        sums[get_group_id(0)] = sum;\n"
    "}\n";

/* A reduction figure: its kernel "reduce" (source, build options), its
 * elements (4 bytes each, all 1 or 1.0f) in groups of BENCH_REDUCE_GROUP. */
struct reduction {
    const char *source, *options;
    size_t n;
    bool is_float;
};

static const struct reduction reductions[] = {
    {TREE_SOURCE("uint"), "", BENCH_REDUCE_N, false},
    {TREE_SOURCE("float"), "", BENCH_REDUCE_FLOAT_N, true},
    {reduce_float_collective_source, "-cl-std=CL3.0", BENCH_REDUCE_FLOAT_N,
     true},
};
static const struct reduction *reducing;

static cl_int reduce_buffers(size_t n)
{
    cl_int err;
    sx.x = clCreateBuffer(sx.context, CL_MEM_READ_ONLY, n * 4, NULL, &err);
    if (err == CL_SUCCESS)
        sx.y = clCreateBuffer(sx.context, CL_MEM_READ_WRITE,
                              n / BENCH_REDUCE_GROUP * 4, NULL, &err);
    const cl_uint one = 1;
    const cl_float one_f = 1.0f;
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(sx.queue, sx.x,
                                  reducing->is_float ? (const void *)&one_f
                                                     : (const void *)&one,
                                  4, 0, n * 4, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(sx.queue);
    return err;
}

static cl_int reduce_setup_as(const struct bench *b,
                              const struct reduction *how)
{
    cl_int err;
    reducing = how;
    sx.context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        sx.queue = clCreateCommandQueueWithProperties(sx.context, b->device,
                                                      NULL, &err);
    if (err == CL_SUCCESS)
        err = source_kernel(b->device, how->source, how->options, "reduce");
    if (err == CL_SUCCESS)
        err = reduce_buffers(how->n);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(sx.kernel, 0, sizeof(cl_mem), &sx.x);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(sx.kernel, 1, sizeof(cl_mem), &sx.y);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(sx.kernel, 2, BENCH_REDUCE_GROUP * 4, NULL);
    return err;
}

static cl_int reduce_setup(const struct bench *b, int units)
{
    (void)units;
    return reduce_setup_as(b, &reductions[0]);
}

static cl_int reduce_float_tree_setup(const struct bench *b, int units)
{
    (void)units;
    return reduce_setup_as(b, &reductions[1]);
}

static cl_int reduce_float_collective_setup(const struct bench *b, int units)
{
    (void)units;
    return reduce_setup_as(b, &reductions[2]);
}

/* Whether the last group's sum, read back, is the group's size. */
static cl_int reduce_check(void)
{
    size_t groups = reducing->n / BENCH_REDUCE_GROUP;
    union {
        cl_uint u;
        cl_float f;
    } last = {0};
    cl_int err = clEnqueueReadBuffer(sx.queue, sx.y, CL_TRUE,
                                     (groups - 1) * 4, 4, &last, 0, NULL,
                                     NULL);
    bool right = reducing->is_float ? last.f == (cl_float)BENCH_REDUCE_GROUP
                                    : last.u == BENCH_REDUCE_GROUP;
    return err == CL_SUCCESS && !right ? CL_INVALID_VALUE : err;
}

/* One reduction, completed; checked once (every sum is the group size). */
static cl_int reduce_loop(const struct bench *b, long n)
{
    (void)b;
    const size_t global = reducing->n, local = BENCH_REDUCE_GROUP;
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueNDRangeKernel(sx.queue, sx.kernel, 1, NULL,
                                            &global, &local, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(sx.queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return reduce_check();
}

const struct work bench_reduce_source = {reduce_setup, reduce_loop,
                                         saxpy_teardown, 0, 0};
const struct work bench_reduce_float_tree = {reduce_float_tree_setup,
                                             reduce_loop, saxpy_teardown, 0,
                                             0};
const struct work bench_reduce_float_collective = {
    reduce_float_collective_setup, reduce_loop, saxpy_teardown, 0, 0};

/* ---- building a small program ------------------------------------------ */

static unsigned long build_nonce;

enum { FIRST_RUN_ITEMS = 1024 };

/* The saxpy of @p program over FIRST_RUN_ITEMS, to its end. */
static cl_int run_once(cl_program program)
{
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "saxpy", &err);
    const float a = 2.0f;
    size_t global = FIRST_RUN_ITEMS;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 0, sizeof(a), &a);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 1, sizeof(sx.x), &sx.x);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 2, sizeof(sx.y), &sx.y);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(sx.queue, kernel, 1, NULL, &global,
                                     NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(sx.queue);
    if (kernel)
        clReleaseKernel(kernel);
    return err;
}

/* The saxpy source, made new (@p fresh: a function named with a number
 * never used before, in this process and, with the process id, in earlier
 * ones) or always the same, in @p source (64 more bytes than
 * saxpy_source). The number is in the compiled code, not only in the text:
 * no cache has seen it, of sources or of compiled code (pocl's kernel
 * cache is keyed on the code, so a new comment was a hit there). */
static void build_source(char *source, size_t size, bool fresh)
{
    snprintf(source, size, "void nonce_%ld_%lu(void) {}\n%s",
             fresh ? (long)getpid() : 0L, fresh ? ++build_nonce : 0ul,
             saxpy_source);
}

/* One build of the saxpy source, new or not (build_source); with
 * @p run, its kernel made and run once over a small range too, as an
 * application's first use of a program: an ICD that makes native code
 * only at the first enqueue (pocl) pays for it there. */
static cl_int build_once(const struct bench *b, bool fresh, bool run)
{
    char source[sizeof(saxpy_source) + 64];
    build_source(source, sizeof(source), fresh);
    const char *text = source;
    cl_int err;
    cl_program program = clCreateProgramWithSource(sx.context, 1, &text,
                                                   NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(program, 1, &b->device, "", NULL, NULL);
    if (err == CL_SUCCESS && run)
        err = run_once(program);
    if (program)
        clReleaseProgram(program);
    return err;
}

static cl_int build_setup(const struct bench *b, int units)
{
    (void)units;
    cl_int err;
    sx.context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        sx.queue = clCreateCommandQueueWithProperties(sx.context, b->device,
                                                      NULL, &err);
    if (err == CL_SUCCESS)
        sx.x = clCreateBuffer(sx.context, CL_MEM_READ_WRITE,
                              FIRST_RUN_ITEMS * sizeof(float), NULL, &err);
    if (err == CL_SUCCESS)
        sx.y = clCreateBuffer(sx.context, CL_MEM_READ_WRITE,
                              FIRST_RUN_ITEMS * sizeof(float), NULL, &err);
    /* The cache's entry, and a server started where the ICD has one. */
    return err == CL_SUCCESS ? build_once(b, false, false) : err;
}

static cl_int build_uncached_loop(const struct bench *b, long n)
{
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = build_once(b, true, false);
    return err;
}

static cl_int build_first_run_loop(const struct bench *b, long n)
{
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = build_once(b, true, true);
    return err;
}

static cl_int build_cached_loop(const struct bench *b, long n)
{
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = build_once(b, false, false);
    return err;
}

const struct work bench_build_uncached = {build_setup, build_uncached_loop,
                                          saxpy_teardown, 0, 0};
const struct work bench_build_cached = {build_setup, build_cached_loop,
                                        saxpy_teardown, 0, 0};
const struct work bench_build_first_run = {build_setup, build_first_run_loop,
                                           saxpy_teardown, 0, 0};

#define SAXPY_UNITS(n) {saxpy_setup, saxpy_loop, saxpy_teardown, n, SAXPY_BYTES}
const struct work bench_saxpy_units[7] = {
    SAXPY_UNITS(1),  SAXPY_UNITS(2),  SAXPY_UNITS(4),  SAXPY_UNITS(8),
    SAXPY_UNITS(16), SAXPY_UNITS(32), SAXPY_UNITS(64),
};

/* ---- kernel objects ------------------------------------------------------ */

/* The saxpy's program and kernel, and two small buffers: the loops
 * create kernels of the program and set the arguments of the kernel. */
static cl_int kernel_setup(const struct bench *b, int units)
{
    (void)units;
    cl_int err;
    sx.context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        err = saxpy_kernel(b->device, false);
    if (err == CL_SUCCESS)
        sx.x = clCreateBuffer(sx.context, CL_MEM_READ_ONLY, 4096, NULL, &err);
    if (err == CL_SUCCESS)
        sx.y = clCreateBuffer(sx.context, CL_MEM_READ_WRITE, 4096, NULL,
                              &err);
    return err;
}

/* clCreateKernel + clReleaseKernel of the saxpy (three arguments). */
static cl_int kernel_create_loop(const struct bench *b, long n)
{
    (void)b;
    char name[64] = "";
    cl_int err = clGetKernelInfo(sx.kernel, CL_KERNEL_FUNCTION_NAME,
                                 sizeof(name), name, NULL);
    for (long i = 0; i < n && err == CL_SUCCESS; i++) {
        cl_kernel kernel = clCreateKernel(sx.program, name, &err);
        if (err == CL_SUCCESS)
            err = clReleaseKernel(kernel);
    }
    return err;
}

/* One clSetKernelArg of each of the saxpy's three arguments. */
static cl_int kernel_set_arg_loop(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = saxpy_set_args(0.5f);
    return err;
}

const struct work bench_kernel_create = {kernel_setup, kernel_create_loop,
                                         saxpy_teardown, 0, 0};
const struct work bench_kernel_set_arg = {kernel_setup, kernel_set_arg_loop,
                                          saxpy_teardown, 0, 0};

/* ---- saxpy in plain C ---------------------------------------------------- */

static struct {
    float *x, *y;
    int threads;
} c;

/* The loop refcl_saxpy_float runs (exec/builtin.c). */
static void saxpy_c(float a, const float *restrict x, float *restrict y,
                    size_t count)
{
    for (size_t i = 0; i < count; i++)
        y[i] = a * x[i] + y[i];
}

cl_int bench_run_slices(int threads, size_t total, void *(*main)(void *))
{
    pthread_t ids[256];
    struct bench_slice slices[256];
    int count = threads < 1 ? 1 : threads < 256 ? threads : 256;
    size_t per = total / (size_t)count;
    for (int t = 0; t < count; t++)
        slices[t] = (struct bench_slice){(size_t)t * per,
                                         t == count - 1 ? total - (size_t)t * per : per};
    if (count == 1) {
        main(&slices[0]);
        return CL_SUCCESS;
    }
    int started = 0;
    while (started < count && pthread_create(&ids[started], NULL, main, &slices[started]) == 0)
        started++;
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
    return started < count ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

static void *slice_main(void *arg)
{
    const struct bench_slice *s = arg;
    saxpy_c(0.5f, c.x + s->first, c.y + s->first, s->count);
    return NULL;
}

static cl_int c_setup(const struct bench *b, int units)
{
    (void)b;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c.threads = units > 0 ? units : (cpus > 0 ? (int)cpus : 1);
    c.x = aligned_alloc(128, BENCH_SAXPY_N * sizeof(float));
    c.y = aligned_alloc(128, BENCH_SAXPY_N * sizeof(float));
    if (!c.x || !c.y)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < BENCH_SAXPY_N; i++) {
        c.x[i] = 1.0f;
        c.y[i] = 2.0f;
    }
    return CL_SUCCESS;
}

/* One saxpy, cut in one slice per thread (threads started for it, as
 * refcl's team is not: the start costs little next to 64 Mi floats). */
static cl_int c_loop(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = bench_run_slices(c.threads, BENCH_SAXPY_N, slice_main);
    return err;
}

static void c_teardown(void)
{
    free(c.x);
    free(c.y);
    memset(&c, 0, sizeof(c));
}

#define REDUCE_GROUPS (BENCH_REDUCE_N / BENCH_REDUCE_GROUP)

/* ---- the reduction in plain C -------------------------------------------- */

static struct {
    cl_uint *src, *sums;
    int threads;
} r;

/* Groups [first, first + count): each group's sum, as the kernel makes. */
static void *reduce_slice(void *arg)
{
    const struct bench_slice *s = arg;
    for (size_t g = s->first; g < s->first + s->count; g++) {
        const cl_uint *in = r.src + g * BENCH_REDUCE_GROUP;
        cl_uint sum = 0;
        for (size_t i = 0; i < BENCH_REDUCE_GROUP; i++)
            sum += in[i];
        r.sums[g] = sum;
    }
    return NULL;
}

static cl_int reduce_c_setup(const struct bench *b, int units)
{
    (void)b;
    (void)units;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    r.threads = cpus > 0 ? (int)(cpus < 256 ? cpus : 256) : 1;
    r.src = aligned_alloc(128, BENCH_REDUCE_N * sizeof(cl_uint));
    r.sums = aligned_alloc(128, REDUCE_GROUPS * sizeof(cl_uint));
    if (!r.src || !r.sums)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < BENCH_REDUCE_N; i++)
        r.src[i] = 1;
    return CL_SUCCESS;
}

/* The sums, one slice of groups per thread. */
static cl_int reduce_c_loop(const struct bench *b, long n)
{
    (void)b;
    cl_int err = CL_SUCCESS;
    for (long i = 0; i < n && err == CL_SUCCESS; i++)
        err = bench_run_slices(r.threads, REDUCE_GROUPS, reduce_slice);
    if (err == CL_SUCCESS && r.sums[REDUCE_GROUPS - 1] != BENCH_REDUCE_GROUP)
        err = CL_INVALID_VALUE;
    return err;
}

static void reduce_c_teardown(void)
{
    free(r.src);
    free(r.sums);
    memset(&r, 0, sizeof(r));
}

const struct work bench_reduce_c_all = {reduce_c_setup, reduce_c_loop,
                                        reduce_c_teardown, -1, 0};

const struct work bench_saxpy_c1 = {c_setup, c_loop, c_teardown, 1,
                                    SAXPY_BYTES};
const struct work bench_saxpy_c_all = {c_setup, c_loop, c_teardown, -1,
                                       SAXPY_BYTES};

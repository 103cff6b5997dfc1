/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compiled kernels run: kernels from OpenCL C source through
 * clEnqueueNDRangeKernel, each result checked against the same computation
 * in C on the host. saxpy with an offset and a smaller last group (and on
 * SVM), 3-D ids, a barrier reduction over many groups, barriers in a loop
 * and in a helper, __local of both kinds across concurrent work-groups, a
 * kernel that faults (an error event, and the queue keeps working: a bad
 * pointer, and an integer division by zero, which traps on x86), and a
 * kernel on a sub-device running on that sub-device's units.
 */
#include <limits.h>

#include "exec.h"
#include "CL/cl_ext_refcl.h"

static const char source[] =
    "kernel void saxpy(float a, global const float *x, global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + y[i];\n"
    "}\n"
    "kernel void ids(global uint4 *gid, global uint4 *lid)\n"
    "{\n"
    "    size_t e0 = get_global_offset(0) + get_global_size(0);\n"
    "    size_t e1 = get_global_offset(1) + get_global_size(1);\n"
    "    size_t i = get_global_id(0) + e0 * (get_global_id(1) +\n"
    "                                        e1 * get_global_id(2));\n"
    "    gid[i] = (uint4)(get_global_id(0), get_global_id(1),\n"
    "                     get_global_id(2), get_group_id(0) +\n"
    "                     100 * get_group_id(1) + 10000 * get_group_id(2));\n"
    "    lid[i] = (uint4)(get_local_id(0), get_local_id(1),\n"
    "                     get_local_id(2), get_local_size(0) *\n"
    "                     get_local_size(1) * get_local_size(2) +\n"
    "                     1000 * get_work_dim());\n"
    "}\n"
    /* Barriers in a loop. */
    "kernel void reduce(global const uint *src, global uint *sums,\n"
    "                   local uint *scratch)\n"
    "{\n"
    "    size_t l = get_local_id(0);\n"
    "    scratch[l] = src[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "        if (l < s)\n"
    "            scratch[l] += scratch[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        sums[get_group_id(0)] = scratch[0];\n"
    "}\n"
    /* A barrier in a helper, on the kernel's own __local array. */
    "void stage(local uint *tile, uint value)\n"
    "{\n"
    "    tile[get_local_id(0)] = value;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "}\n"
    "kernel void reverse(global uint *data)\n"
    "{\n"
    "    local uint tile[64];\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    stage(tile, data[get_global_id(0)]);\n"
    "    data[get_global_id(0)] = tile[n - 1 - l] + (uint)get_group_id(0);\n"
    "}\n"
    /* __local of both kinds. */
    "kernel void both(global uint *out, local uint *arg)\n"
    "{\n"
    "    local uint own[32];\n"
    "    size_t l = get_local_id(0), g = get_group_id(0);\n"
    "    size_t n = get_local_size(0);\n"
    "    arg[l] = (uint)(g * 1000 + l);\n"
    "    own[l] = (uint)(g * 7 + l);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = arg[n - 1 - l] + own[(l + 1) % n];\n"
    "}\n"
    "kernel void poke(global int *p, int v)\n"
    "{\n"
    "    p[get_global_id(0)] = v;\n"
    "}\n"
    "kernel void divide(global const int *a, global const int *b,\n"
    "                   global int *q, global long *lq)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    q[2 * i] = a[i] / b[i];\n"
    "    q[2 * i + 1] = a[i] % b[i];\n"
    "    long la = a[i] == INT_MIN ? LONG_MIN : a[i];\n"
    "    lq[2 * i] = la / b[i];\n"
    "    lq[2 * i + 1] = la % b[i];\n"
    "}\n";

/* Where each work-item runs: Linux's getcpu system call (309 on x86-64),
 * made by inline assembly, which -cl-refcl-allow-inline-asm lets through
 * (a kernel may call nothing of libc, as sched_getcpu). */
#if defined(__x86_64__)
static const char where_source[] =
    "kernel void where(global uint *cpu)\n"
    "{\n"
    "    uint c = 0;\n"
    "    long ret;\n"
    "    __asm__ volatile(\"syscall\" : \"=a\"(ret)\n"
    "                     : \"a\"(309L), \"D\"(&c), \"S\"(0L), \"d\"(0L)\n"
    "                     : \"rcx\", \"r11\", \"memory\");\n"
    "    cpu[get_global_id(0)] = ret == 0 ? c : 0xffffffffu;\n"
    "}\n";
#endif

static cl_program program;

/* y = a x + y over [5, 5 + 100003) of 100008 floats, in groups of 1000 (the
 * last one of 3); then again with no local size, on SVM. */
static void check_saxpy(void)
{
    enum { N = 100008, OFFSET = 5, GLOBAL = 100003 };
    static float x[N], y[N], want[N];
    const float a = 2.5f;
    for (size_t i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = (float)(i % 7);
        bool in = i >= OFFSET && i < OFFSET + GLOBAL;
        want[i] = in ? a * x[i] + y[i] : y[i];
    }
    cl_kernel k = exec_kernel(program, "saxpy");
    cl_mem bx = exec_buffer(sizeof(x), x), by = exec_buffer(sizeof(y), y);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(double), &a), CL_INVALID_ARG_SIZE);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(bx), &bx), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, sizeof(by), &by), CL_SUCCESS);
    const size_t offset = OFFSET, global = GLOBAL, local = 1000;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global, &local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    static float out[N];
    exec_read(by, sizeof(out), out);
    CHECK_EQ(memcmp(out, want, sizeof(out)), 0);

    float *sx = clSVMAlloc(context, 0, sizeof(x), 0);
    float *sy = clSVMAlloc(context, 0, sizeof(y), 0);
    CHECK(sx && sy);
    if (sx && sy) {
        memcpy(sx, x, sizeof(x));
        memcpy(sy, y, sizeof(y));
        CHECK_EQ(clSetKernelArgSVMPointer(k, 1, sx), CL_SUCCESS);
        CHECK_EQ(clSetKernelArgSVMPointer(k, 2, sy), CL_SUCCESS);
        CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global, NULL,
                                        0, NULL, NULL),
                 CL_SUCCESS);
        CHECK_EQ(clFinish(queue), CL_SUCCESS);
        CHECK_EQ(memcmp(sy, want, sizeof(want)), 0);
    }
    clSVMFree(context, sx);
    clSVMFree(context, sy);
    CHECK_EQ(clReleaseMemObject(bx), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(by), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* Every id of a 3-D range with offsets and smaller last groups. */
static void check_ids(void)
{
    enum { E0 = 8, E1 = 7, E2 = 6, CELLS = E0 * E1 * E2 };
    const size_t offset[3] = {1, 2, 3}, global[3] = {7, 5, 3};
    const size_t local[3] = {4, 2, 2};
    cl_uint init[CELLS * 4];
    memset(init, 0xff, sizeof(init));
    cl_mem gid = exec_buffer(sizeof(init), init);
    cl_mem lid = exec_buffer(sizeof(init), init);
    cl_kernel k = exec_kernel(program, "ids");
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(gid), &gid), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(lid), &lid), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 3, offset, global, local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    static cl_uint g[CELLS * 4], l[CELLS * 4];
    exec_read(gid, sizeof(g), g);
    exec_read(lid, sizeof(l), l);
    int wrong = 0;
    for (unsigned z = 0; z < E2; z++)
        for (unsigned y = 0; y < E1; y++)
            for (unsigned x = 0; x < E0; x++) {
                size_t i = 4 * (x + E0 * (y + E1 * z));
                if (x < 1 || y < 2 || z < 3) {
                    wrong += g[i] != CL_UINT_MAX || l[i] != CL_UINT_MAX;
                    continue;
                }
                unsigned gx = (x - 1) / 4, gy = (y - 2) / 2, gz = (z - 3) / 2;
                unsigned sx = gx == 1 ? 3 : 4, sz = gz == 1 ? 1 : 2;
                unsigned sy = gy == 2 ? 1 : 2;
                wrong += g[i] != x || g[i + 1] != y || g[i + 2] != z ||
                         g[i + 3] != gx + 100 * gy + 10000 * gz;
                wrong += l[i] != (x - 1) % 4 || l[i + 1] != (y - 2) % 2 ||
                         l[i + 2] != (z - 3) % 2 ||
                         l[i + 3] != sx * sy * sz + 3000;
            }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(gid), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(lid), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* The sum of each group of 256 of 1 Mi uints (modulo 2^32). */
static void check_reduce(void)
{
    enum { N = 1 << 20, L = 256, GROUPS = N / L };
    static cl_uint src[N], sums[GROUPS];
    for (size_t i = 0; i < N; i++)
        src[i] = (cl_uint)(i * 2654435761u);
    cl_mem bs = exec_buffer(sizeof(src), src);
    cl_mem bsums = exec_buffer(sizeof(sums), NULL);
    cl_kernel k = exec_kernel(program, "reduce");
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(bs), &bs), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(bsums), &bsums), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 2, L * sizeof(cl_uint), NULL), CL_SUCCESS);
    const size_t global = N, local = L;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(bsums, sizeof(sums), sums);
    int wrong = 0;
    for (size_t g = 0; g < GROUPS; g++) {
        cl_uint sum = 0;
        for (size_t i = 0; i < L; i++)
            sum += src[g * L + i];
        wrong += sums[g] != sum;
    }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(bs), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(bsums), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* Each group of 64 reversed through the kernel's own __local array (a
 * barrier in a helper), plus its group id; then each group of 32 of
 * `both`, through both kinds of __local. 4096 groups each, run
 * concurrently on the device's threads: a __local shared between groups
 * would show. */
static void check_local(void)
{
    enum { N = 4096 * 64 };
    static cl_uint data[N], out[N];
    for (size_t i = 0; i < N; i++)
        data[i] = (cl_uint)(i * 7 + 3);
    cl_mem b = exec_buffer(sizeof(data), data);
    cl_kernel k = exec_kernel(program, "reverse");
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    size_t global = N, local = 64;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++) {
        size_t g = i / 64, l = i % 64;
        wrong += out[i] != data[g * 64 + 63 - l] + (cl_uint)g;
    }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);

    k = exec_kernel(program, "both");
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, 32 * sizeof(cl_uint), NULL), CL_SUCCESS);
    global = 4096 * 32;
    local = 32;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b, global * sizeof(cl_uint), out);
    wrong = 0;
    for (size_t i = 0; i < global; i++) {
        size_t g = i / 32, l = i % 32;
        wrong += out[i] != (cl_uint)(g * 1000 + 31 - l) +
                               (cl_uint)(g * 7 + (l + 1) % 32);
    }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* @p name(p, v): with @p p NULL or not (@p null) and @p bad, its event ends
 * with an error status and the application lives on; then with a buffer
 * and @p good the queue runs it, every item writing 42. */
/* Runs @p k over @p global work-items and waits: clWaitForEvents must
 * return @p wait_code and the command end with @p status. */
static void run_expecting(cl_kernel k, size_t global, cl_int wait_code,
                          cl_int status)
{
    cl_event event = NULL;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0,
                                    NULL, &event),
             CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event), wait_code);
    cl_int ended = 1;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(ended), &ended, NULL),
             CL_SUCCESS);
    CHECK_EQ(ended, status);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
}

static void check_fault(const char *name, bool null, cl_int bad, cl_int good)
{
    if (exec_under_valgrind()) {
        printf("a faulting kernel (%s): not under valgrind, which reports "
               "the fault itself\n", name);
        return;
    }
    static cl_int out[1 << 16];
    const size_t global = 1 << 16;
    cl_kernel k = exec_kernel(program, name);
    cl_mem b = exec_buffer(sizeof(out), NULL);
    const cl_mem p = null ? NULL : b;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(p), &p), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(bad), &bad), CL_SUCCESS);
    run_expecting(k, global, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                  CL_OUT_OF_RESOURCES);

    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(good), &good), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    exec_read(b, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < global; i++)
        wrong += out[i] != 42;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* "A divide by zero with integer types does not cause an exception but
 * will result in an unspecified value" (OpenCL C 3.0, 6.15.1), nor does
 * the most negative value divided by -1 (x86's idiv traps on both): the
 * command completes, and every defined quotient and remainder, int and
 * long, is C's. */
static void check_division(void)
{
    enum { N = 8 };
    static const cl_int a[N] = {7, INT_MIN, 5, -9, INT_MIN, 100, 3, 0};
    static const cl_int b[N] = {2, -1, 0, 0, 1, -7, -1, 0};
    cl_int q[2 * N];
    cl_long lq[2 * N];
    cl_kernel k = exec_kernel(program, "divide");
    cl_mem args[4] = {exec_buffer(sizeof(a), a), exec_buffer(sizeof(b), b),
                      exec_buffer(sizeof(q), NULL),
                      exec_buffer(sizeof(lq), NULL)};
    for (cl_uint i = 0; i < 4; i++)
        CHECK_EQ(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]), CL_SUCCESS);
    run_expecting(k, N, CL_SUCCESS, CL_COMPLETE);
    exec_read(args[2], sizeof(q), q);
    exec_read(args[3], sizeof(lq), lq);
    for (int i = 0; i < N; i++) {
        cl_long la = a[i] == INT_MIN ? LLONG_MIN : a[i];
        if (b[i] != 0 && !(b[i] == -1 && a[i] == INT_MIN)) {
            CHECK_EQ(q[2 * i], a[i] / b[i]);
            CHECK_EQ(q[2 * i + 1], a[i] % b[i]);
        }
        if (b[i] != 0 && !(b[i] == -1 && la == LLONG_MIN)) {
            CHECK_EQ(lq[2 * i], la / b[i]);
            CHECK_EQ(lq[2 * i + 1], la % b[i]);
        }
    }
    for (int i = 0; i < 4; i++)
        CHECK_EQ(clReleaseMemObject(args[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

#if defined(__x86_64__)
/* Every work-item of `where` on @p q ran on @p unit. */
static void where_check(cl_context c, cl_command_queue q, cl_program p,
                        const char *text, cl_uint unit)
{
    cl_kernel k = exec_kernel(p, "where");
    enum { N = 1 << 16 };
    static cl_uint cpu[N];
    cl_mem b = test_buffer(c, CL_MEM_READ_WRITE, sizeof(cpu), NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
    const size_t global = N;
    CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL,
                                    NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(cpu), cpu, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    int elsewhere = 0;
    for (size_t i = 0; i < N; i++)
        elsewhere += cpu[i] != unit;
    CHECK_EQ(elsewhere, 0);
    printf("a compiled kernel on sub-device %s: every work-item ran on %u\n",
           text, unit);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}
#endif

/* The last EQUALLY 1 sub-device runs every work-item on its one unit. */
static void check_sub_device(void)
{
#if !defined(__x86_64__)
    printf("compiled kernels on sub-devices: no getcpu for kernels here\n");
}
#else
    if (!test_bindable_units(device)) {
        printf("compiled kernels on sub-devices: binding cannot be tested "
               "here\n");
        return;
    }
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subs[64];
    cl_uint count = 0;
    CHECK_EQ(clCreateSubDevices(device, equally, 64, subs, &count),
             CL_SUCCESS);
    cl_device_id sub = subs[count - 1];
    char text[64] = "";
    CHECK_EQ(clGetDeviceInfo(sub, CL_DEVICE_CPUSET_REFCL, sizeof(text), text,
                             NULL),
             CL_SUCCESS);
    cl_uint unit = (cl_uint)strtoul(text, NULL, 10);
    cl_context c;
    cl_command_queue q;
    if (!test_context_queue(sub, 0, &c, &q)) {
        CHECK(0);
        return;
    }
    cl_program p = exec_build_in(c, where_source,
                                 "-cl-std=CL3.0 -cl-refcl-allow-inline-asm");
    if (p) {
        where_check(c, q, p, text, unit);
        CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
    }
    CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
    for (cl_uint s = 0; s < count; s++)
        CHECK_EQ(clReleaseDevice(subs[s]), CL_SUCCESS);
}
#endif

int main(void)
{
    exec_setup();
    program = exec_build(source, "-cl-std=CL3.0");
    if (!program)
        return 1;
    check_saxpy();
    check_ids();
    check_reduce();
    check_local();
    check_fault("poke", true, 42, 42);  /* a write through NULL */
    check_division();
    check_sub_device();
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    exec_teardown();
    return TEST_RESULT();
}

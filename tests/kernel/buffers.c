/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/buffers: kernels on real memory objects. Each built-in kernel's
 * result, element by element, on buffers, sub-buffers and SVM
 * allocations, over odd sizes, offsets and local sizes; refcl_cpu_id on
 * EQUALLY 1 sub-devices (each element the sub-device's one unit, where
 * this process may bind threads); what clSetKernelArg, clEnqueueNDRangeKernel
 * and clEnqueueNativeKernel answer for buffers of another context,
 * released buffers and buffers too small; native kernels seeing the
 * buffers of mem_list at their host addresses, their writes read back;
 * and a buffer the application releases while a kernel that uses it is
 * pending: it lives until the kernel is done, and its destructor callback
 * runs after the kernel, seeing what the kernel wrote.
 */
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "CL/cl_ext_refcl.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static cl_program program; /* every built-in kernel, for device */

static cl_kernel kernel_of(const char *name)
{
    cl_int err = 1;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return k;
}

/* A buffer of @p size bytes, each @p byte. */
static cl_mem filled(size_t size, unsigned char byte)
{
    cl_mem mem = test_buffer(context, CL_MEM_READ_WRITE, size, NULL);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, &byte, 1, 0, size, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    return mem;
}

static void set_mem(cl_kernel k, cl_uint index, cl_mem mem)
{
    CHECK_EQ(clSetKernelArg(k, index, sizeof(mem), &mem), CL_SUCCESS);
}

/* Runs @p k and waits for it. */
static void run(cl_kernel k, cl_uint dims, const size_t *offset,
                const size_t *global, const size_t *local)
{
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, dims, offset, global, local, 0,
                                    NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

static void read_back(cl_mem mem, size_t size, void *out)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, out, 0, NULL,
                                 NULL),
             CL_SUCCESS);
}

/* ---- each kernel's result --------------------------------------------- */

/* Offset 3, 997 work-items of groups of 10 (the last one 7): bytes 3 to
 * 999 take the value, the first three keep theirs. */
static void check_fill_uchar(void)
{
    enum { N = 1000 };
    cl_kernel k = kernel_of("refcl_fill_uchar");
    cl_mem dst = filled(N, 0x11);
    const cl_uchar value = 0xab;
    set_mem(k, 0, dst);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(value), &value), CL_SUCCESS);
    const size_t offset = 3, global = N - 3, local = 10;
    run(k, 1, &offset, &global, &local);
    unsigned char out[N];
    read_back(dst, N, out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] != (i < 3 ? 0x11 : 0xab);
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* Two dimensions, offset (1, 2), size (5, 3): the rectangle [1, 6) x
 * [2, 5) of an array of rows 6 elements long, nothing else. */
static void check_fill_ulong(void)
{
    enum { W = 6, H = 5 };
    cl_kernel k = kernel_of("refcl_fill_ulong");
    cl_mem dst = filled(W * H * sizeof(cl_ulong), 0);
    const cl_ulong value = 0x0123456789abcdefu;
    set_mem(k, 0, dst);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(value), &value), CL_SUCCESS);
    const size_t offset[2] = {1, 2}, global[2] = {5, 3}, local[2] = {2, 2};
    run(k, 2, offset, global, local);
    cl_ulong out[W * H];
    read_back(dst, sizeof(out), out);
    int wrong = 0;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            bool inside = x >= 1 && y >= 2;
            wrong += out[x + W * y] != (inside ? value : 0);
        }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* 1003 work-items in groups of 7 (the last of 2), counting from near the
 * top of a uint: the count wraps. */
static void check_iota(void)
{
    enum { N = 1003 };
    cl_kernel k = kernel_of("refcl_iota_uint");
    cl_mem dst = filled(N * sizeof(cl_uint), 0xff);
    const cl_uint start = 0xfffffff0u;
    set_mem(k, 0, dst);
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(start), &start), CL_SUCCESS);
    const size_t global = N, local = 7;
    run(k, 1, NULL, &global, &local);
    cl_uint out[N];
    read_back(dst, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] != (cl_uint)(start + i);
    CHECK_EQ(wrong, 0);
    CHECK_EQ(out[16], 0u);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* From a buffer into a sub-buffer at byte 256 of another: the copy lands
 * in the sub-buffer's part of its parent and nowhere else. */
static void check_copy_into_sub_buffer(void)
{
    enum { N = 301, ORIGIN = 256, PARENT = ORIGIN + N * 4 + 64 };
    cl_kernel k = kernel_of("refcl_copy_uint");
    cl_uint in[N];
    for (size_t i = 0; i < N; i++)
        in[i] = (cl_uint)(i * 2654435761u);
    cl_mem src = test_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             sizeof(in), in);
    cl_mem parent = filled(PARENT, 0x77);
    const cl_buffer_region region = {ORIGIN, N * sizeof(cl_uint)};
    cl_int err = 1;
    cl_mem dst = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &region,
                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    set_mem(k, 0, dst);
    set_mem(k, 1, src);
    const size_t global = N;
    run(k, 1, NULL, &global, NULL);
    unsigned char out[PARENT];
    read_back(parent, PARENT, out);
    int wrong = 0;
    for (size_t i = 0; i < PARENT; i++)
        if (i < ORIGIN || i >= ORIGIN + N * 4)
            wrong += out[i] != 0x77;
    CHECK_EQ(wrong, 0);
    CHECK(memcmp(out + ORIGIN, in, sizeof(in)) == 0);
    /* A sub-buffer whose origin is not aligned to
     * CL_DEVICE_MEM_BASE_ADDR_ALIGN cannot be made on refcl's devices, so
     * no kernel argument can be one. */
    const cl_buffer_region odd = {4, 64};
    cl_mem none = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                    CL_BUFFER_CREATE_TYPE_REGION, &odd, &err);
    CHECK(none == NULL);
    CHECK_EQ(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(parent), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* Through a 256-byte __constant table; a table larger than
 * CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE cannot run (CL_OUT_OF_RESOURCES). */
static void check_lookup(void)
{
    enum { N = 777 };
    cl_kernel k = kernel_of("refcl_lookup_uchar");
    unsigned char table[256], in[N];
    for (int i = 0; i < 256; i++)
        table[i] = (unsigned char)(255 - i) ^ 0x5a;
    for (size_t i = 0; i < N; i++)
        in[i] = (unsigned char)(i * 37 + 11);
    cl_mem t = test_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           sizeof(table), table);
    cl_mem src = test_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             sizeof(in), in);
    cl_mem dst = filled(N, 0);
    set_mem(k, 0, dst);
    set_mem(k, 1, src);
    set_mem(k, 2, t);
    const size_t global = N, local = 5;
    run(k, 1, NULL, &global, &local);
    unsigned char out[N];
    read_back(dst, N, out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] != table[in[i]];
    CHECK_EQ(wrong, 0);

    cl_ulong limit = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                             sizeof(limit), &limit, NULL),
             CL_SUCCESS);
    cl_mem big = filled((size_t)limit + 1, 0);
    set_mem(k, 2, big);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL,
                                    NULL),
             CL_OUT_OF_RESOURCES);
    cl_mem exact = filled((size_t)limit, 0);
    set_mem(k, 2, exact);
    run(k, 1, NULL, &global, NULL);
    read_back(dst, N, out);
    wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] != 0;
    CHECK_EQ(wrong, 0);
    cl_mem mems[] = {t, src, dst, big, exact};
    for (size_t i = 0; i < 5; i++)
        CHECK_EQ(clReleaseMemObject(mems[i]), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* y = 0.5 x + y with x = i, y = 3 i: 3.5 i, exact in single precision. */
static void check_saxpy(void)
{
    enum { N = 4099 };
    cl_kernel k = kernel_of("refcl_saxpy_float");
    static float x[N], y[N], out[N];
    for (size_t i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 3.0f * (float)i;
    }
    cl_mem bx = test_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            sizeof(x), x);
    cl_mem by = test_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            sizeof(y), y);
    const float a = 0.5f;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    set_mem(k, 1, bx);
    set_mem(k, 2, by);
    const size_t global = N;
    run(k, 1, NULL, &global, NULL);
    read_back(by, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] != 3.5f * (float)i;
    CHECK_EQ(wrong, 0);
    /* One element too few in x: refused, y untouched. */
    const size_t more = N + 1;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &more, NULL, 0, NULL,
                                    NULL),
             CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clReleaseMemObject(bx), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(by), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* 1000 elements in groups of 64 through __local scratch: 16 sums, the
 * last of 40 elements; a scratch too small for a group is refused. */
static void check_reduce(void)
{
    enum { N = 1000, L = 64, G = (N + L - 1) / L };
    cl_kernel k = kernel_of("refcl_reduce_add_uint");
    cl_uint in[N];
    for (size_t i = 0; i < N; i++)
        in[i] = (cl_uint)(i * i * 977u + 3u);
    cl_mem src = test_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             sizeof(in), in);
    cl_mem sums = filled(G * sizeof(cl_uint), 0xee);
    set_mem(k, 0, src);
    set_mem(k, 1, sums);
    CHECK_EQ(clSetKernelArg(k, 2, L * sizeof(cl_uint), NULL), CL_SUCCESS);
    const size_t global = N, local = L;
    run(k, 1, NULL, &global, &local);
    cl_uint out[G];
    read_back(sums, sizeof(out), out);
    for (size_t g = 0; g < G; g++) {
        cl_uint sum = 0;
        for (size_t i = g * L; i < N && i < (g + 1) * L; i++)
            sum += in[i];
        CHECK_EQ(out[g], sum);
    }
    CHECK_EQ(clSetKernelArg(k, 2, L * sizeof(cl_uint) - 1, NULL), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0,
                                    NULL, NULL),
             CL_INVALID_KERNEL_ARGS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(sums), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* ---- where refcl_cpu_id runs ------------------------------------------- */

/* Every element of refcl_cpu_id on each EQUALLY 1 sub-device is that
 * sub-device's one processing unit. */
static void check_cpu_id(void)
{
    cl_uint units = test_bindable_units(device);
    if (!units) {
        printf("refcl_cpu_id on sub-devices: binding cannot be tested here\n");
        return;
    }
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subs[64];
    cl_uint count = 0;
    CHECK_EQ(clCreateSubDevices(device, equally, 64, subs, &count),
             CL_SUCCESS);
    CHECK_EQ(count, units < 64 ? units : 64);
    enum { N = 257 };
    for (cl_uint s = 0; s < count && s < 64; s++) {
        char text[64] = "";
        CHECK_EQ(clGetDeviceInfo(subs[s], CL_DEVICE_CPUSET_REFCL,
                                 sizeof(text), text, NULL),
                 CL_SUCCESS);
        char *end;
        long cpu = strtol(text, &end, 10);
        CHECK(end != text && *end == '\0'); /* one unit */
        cl_context c;
        cl_command_queue q;
        if (!test_context_queue(subs[s], 0, &c, &q)) {
            CHECK(0);
            continue;
        }
        cl_int err = 1;
        cl_program p = clCreateProgramWithBuiltInKernels(c, 1, &subs[s],
                                                         "refcl_cpu_id", &err);
        CHECK_EQ(err, CL_SUCCESS);
        cl_kernel k = clCreateKernel(p, "refcl_cpu_id", &err);
        CHECK_EQ(err, CL_SUCCESS);
        cl_mem dst =
            test_buffer(c, CL_MEM_WRITE_ONLY, N * sizeof(cl_uint), NULL);
        CHECK_EQ(clSetKernelArg(k, 0, sizeof(dst), &dst), CL_SUCCESS);
        const size_t global = N, local = 16;
        CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0,
                                        NULL, NULL),
                 CL_SUCCESS);
        cl_uint out[N];
        CHECK_EQ(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, sizeof(out), out, 0,
                                     NULL, NULL),
                 CL_SUCCESS);
        int elsewhere = 0;
        for (size_t i = 0; i < N; i++)
            elsewhere += out[i] != (cl_uint)cpu;
        if (elsewhere)
            fprintf(stderr, "sub-device %u (cpuset %s): %d work-items ran "
                            "elsewhere, the first on %u\n",
                    s, text, elsewhere, out[0]);
        CHECK_EQ(elsewhere, 0);
        CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
        CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
        CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
        CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
        CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
        CHECK_EQ(clReleaseDevice(subs[s]), CL_SUCCESS);
    }
    printf("refcl_cpu_id: each of %u EQUALLY 1 sub-devices ran on its unit\n",
           count);
}

/* ---- arguments that are not buffers of the kernel's context ------------ */

static void CL_CALLBACK nothing(void *args)
{
    (void)args;
}

static void check_foreign_and_released(void)
{
    cl_kernel k = kernel_of("refcl_fill_uchar");
    cl_int err = 1;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem foreign = test_buffer(other, CL_MEM_READ_WRITE, 64, NULL);
    cl_mem mine = filled(64, 0);
    /* "The memory object must be created with the context associated with
     * the kernel object": another context's is no valid memory object. */
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(foreign), &foreign),
             CL_INVALID_MEM_OBJECT);
    /* Another object type where a buffer goes. */
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &queue),
             CL_INVALID_MEM_OBJECT);
    cl_mem gone = test_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_EQ(clReleaseMemObject(gone), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(gone), &gone), CL_INVALID_MEM_OBJECT);

    /* Set, then released by the application: refcl does not retain
     * arguments, and an enqueue refuses the dead one. */
    const cl_uchar value = 1;
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(value), &value), CL_SUCCESS);
    cl_mem brief = test_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    set_mem(k, 0, brief);
    cl_uint refs = 0;
    CHECK_EQ(clGetMemObjectInfo(brief, CL_MEM_REFERENCE_COUNT, sizeof(refs),
                                &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 1u);
    CHECK_EQ(clReleaseMemObject(brief), CL_SUCCESS);
    const size_t global = 64;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL,
                                    NULL),
             CL_INVALID_KERNEL_ARGS);
    set_mem(k, 0, mine);
    run(k, 1, NULL, &global, NULL);

    /* clEnqueueNativeKernel: "if one or more memory objects specified in
     * mem_list are not valid or are not buffer objects". */
    struct {
        cl_mem mem;
    } args = {foreign};
    const void *loc[] = {&args.mem};
    cl_mem list[] = {foreign};
    CHECK_EQ(clEnqueueNativeKernel(queue, nothing, &args, sizeof(args), 1,
                                   list, loc, 0, NULL, NULL),
             CL_INVALID_MEM_OBJECT);
    list[0] = gone;
    CHECK_EQ(clEnqueueNativeKernel(queue, nothing, &args, sizeof(args), 1,
                                   list, loc, 0, NULL, NULL),
             CL_INVALID_MEM_OBJECT);
    list[0] = mine;
    CHECK_EQ(clEnqueueNativeKernel(queue, nothing, &args, sizeof(args), 1,
                                   list, loc, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(foreign), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mine), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* ---- a buffer whose bytes may not be written ------------------------ */

/* Bookworm's headers declare clImportMemoryARM but no pointer type. */
typedef cl_mem(CL_API_CALL *import_fn)(cl_context, cl_mem_flags,
                                       const cl_import_properties_arm *,
                                       void *, size_t, cl_int *);

/* An import of read-only pages (cl_arm_import_memory_host): a kernel that
 * writes it is refused as the memory commands that write it are
 * (CL_INVALID_OPERATION, docs/import-memory.md); one that only reads it
 * runs. */
static void check_read_only_import(void)
{
    import_fn import = (import_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clImportMemoryARM");
    CHECK(import != NULL);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *pages = mmap(NULL, page, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(pages != MAP_FAILED);
    if (!import || pages == MAP_FAILED)
        return;
    for (size_t i = 0; i < page; i++)
        pages[i] = (unsigned char)i;
    CHECK_EQ(mprotect(pages, page, PROT_READ), 0);
    cl_int err = 1;
    cl_mem mem = import(context, CL_MEM_READ_WRITE, NULL, pages, page, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_kernel fill = kernel_of("refcl_fill_uchar");
    const cl_uchar value = 9;
    const size_t global = 64;
    set_mem(fill, 0, mem);
    CHECK_EQ(clSetKernelArg(fill, 1, sizeof(value), &value), CL_SUCCESS);
    CHECK_EQ(clEnqueueNDRangeKernel(queue, fill, 1, NULL, &global, NULL, 0,
                                    NULL, NULL),
             CL_INVALID_OPERATION);
    cl_kernel copy = kernel_of("refcl_copy_uint");
    cl_mem dst = filled(global * sizeof(cl_uint), 0);
    set_mem(copy, 0, dst);
    set_mem(copy, 1, mem);
    run(copy, 1, NULL, &global, NULL);
    cl_uint out[64];
    read_back(dst, sizeof(out), out);
    CHECK(memcmp(out, pages, sizeof(out)) == 0);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(copy), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(fill), CL_SUCCESS);
    munmap(pages, page);
}

/* ---- SVM ---------------------------------------------------------------- */

/* saxpy on clSVMAlloc memory, one argument an offset into its allocation;
 * a range past the allocation's end is refused; with fine-grain system
 * SVM, plain host memory too. */
static void check_svm(void)
{
    enum { N = 300, AT = 8 };
    cl_device_svm_capabilities caps = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps),
                             &caps, NULL),
             CL_SUCCESS);
    CHECK(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER);
    const cl_svm_mem_flags fine =
        CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
    float *x = clSVMAlloc(context, fine, N * sizeof(float), 0);
    float *y = clSVMAlloc(context, fine, N * sizeof(float), 0);
    CHECK(x && y);
    if (!x || !y)
        return;
    for (size_t i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    cl_kernel k = kernel_of("refcl_saxpy_float");
    const float a = 2.0f;
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
    CHECK_EQ(clSetKernelArgSVMPointer(k, 1, x + AT), CL_SUCCESS);
    CHECK_EQ(clSetKernelArgSVMPointer(k, 2, y), CL_SUCCESS);
    /* x + AT holds N - AT elements. */
    const size_t too_many = N - AT + 1, global = N - AT;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &too_many, NULL, 0,
                                    NULL, NULL),
             CL_INVALID_KERNEL_ARGS);
    run(k, 1, NULL, &global, NULL);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += y[i] != (i < N - AT ? 2.0f * (float)(i + AT) + 1.0f : 1.0f);
    CHECK_EQ(wrong, 0);

    if (caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) {
        float *plain = malloc(N * sizeof(float));
        CHECK(plain != NULL);
        for (size_t i = 0; plain && i < N; i++)
            plain[i] = 4.0f;
        CHECK_EQ(clSetKernelArgSVMPointer(k, 2, plain), CL_SUCCESS);
        run(k, 1, NULL, &global, NULL);
        wrong = 0;
        for (size_t i = 0; plain && i < N; i++)
            wrong += plain[i] !=
                     (i < N - AT ? 2.0f * (float)(i + AT) + 4.0f : 4.0f);
        CHECK_EQ(wrong, 0);
        free(plain);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    clSVMFree(context, x);
    clSVMFree(context, y);
}

/* ---- native kernels and mem_list ---------------------------------------- */

struct native_args {
    cl_mem out;   /* replaced by the buffer's address */
    cl_uint count;
    cl_mem in;    /* likewise */
    void **seen;  /* where the function saw out */
};

/* out[i] = in[i] * 3 + 1. */
static void CL_CALLBACK triple(void *block)
{
    struct native_args *a = block;
    cl_uint *out, *in;
    memcpy(&out, &a->out, sizeof(out));
    memcpy(&in, &a->in, sizeof(in));
    *a->seen = out;
    for (cl_uint i = 0; i < a->count; i++)
        out[i] = in[i] * 3 + 1;
}

static void check_native_mem_list(void)
{
    enum { N = 129 };
    cl_uint in[N];
    for (size_t i = 0; i < N; i++)
        in[i] = (cl_uint)(i * 7);
    cl_mem src = test_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             sizeof(in), in);
    cl_mem dst = filled(N * sizeof(cl_uint), 0);
    void *seen = NULL;
    struct native_args args = {dst, N, src, &seen};
    const void *loc[] = {&args.out, &args.in};
    cl_mem list[] = {dst, src};
    CHECK_EQ(clEnqueueNativeKernel(queue, triple, &args, sizeof(args), 2,
                                   list, loc, 0, NULL, NULL),
             CL_SUCCESS);
    /* The application's block keeps its handles: refcl changed its copy. */
    CHECK(args.out == dst && args.in == src);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cl_uint out[N];
    read_back(dst, sizeof(out), out);
    int wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += out[i] != in[i] * 3 + 1;
    CHECK_EQ(wrong, 0);
    /* The address the function got is the buffer's own (maps are
     * zero-copy). */
    cl_int err = 1;
    void *mapped = clEnqueueMapBuffer(queue, dst, CL_TRUE, CL_MAP_READ, 0,
                                      sizeof(out), 0, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(mapped == seen);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, dst, mapped, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
}

/* ---- a buffer released while a kernel that uses it is pending ----------- */

enum { LIFE_N = 96 };

/* What the destructor callback saw. */
static struct {
    int calls;
    int filled;      /* elements holding the kernel's value */
} died;

static cl_uchar life_host[LIFE_N];

/* refcl_fill_uchar's work with 0x5a, as a native kernel. */
static void CL_CALLBACK fill_native(void *block)
{
    struct native_args *a = block;
    cl_uchar *out;
    memcpy(&out, &a->out, sizeof(out));
    memset(out, 0x5a, a->count);
}

static void CL_CALLBACK on_destroy(cl_mem mem, void *data)
{
    (void)mem;
    cl_uchar value = *(const cl_uchar *)data;
    died.calls++;
    died.filled = 0;
    for (size_t i = 0; i < LIFE_N; i++)
        died.filled += life_host[i] == value;
}

/* A CL_MEM_USE_HOST_PTR buffer (its bytes are the application's, so the
 * callback can read them), released by the application while a fill
 * kernel, or a native kernel, that uses it waits for a user event: it
 * lives on, its destructor runs once the kernel is done — before its
 * completion can be seen — and sees the kernel's writes. */
static void check_pending_keeps_buffer(bool native)
{
    memset(life_host, 0, sizeof(life_host));
    died.calls = 0;
    static const cl_uchar value = 0x5a;
    cl_mem mem = test_buffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                             LIFE_N, life_host);
    CHECK_EQ(clSetMemObjectDestructorCallback(mem, on_destroy, (void *)&value),
             CL_SUCCESS);
    cl_int err = 1;
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_event done = NULL;
    cl_kernel k = NULL;
    if (native) {
        struct native_args args = {mem, LIFE_N, NULL, NULL};
        const void *loc[] = {&args.out};
        CHECK_EQ(clEnqueueNativeKernel(queue, fill_native, &args,
                                       sizeof(args), 1, &mem, loc, 1, &gate,
                                       &done),
                 CL_SUCCESS);
    } else {
        k = kernel_of("refcl_fill_uchar");
        set_mem(k, 0, mem);
        CHECK_EQ(clSetKernelArg(k, 1, sizeof(value), &value), CL_SUCCESS);
        const size_t global = LIFE_N;
        CHECK_EQ(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 1,
                                        &gate, &done),
                 CL_SUCCESS);
        /* The kernel does not hold its arguments; the command does. */
        CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    }
    cl_uint refs = 0;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof(refs),
                                &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 2u); /* the application's and the pending command's */
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(died.calls, 0);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    CHECK_EQ(died.calls, 1);
    CHECK_EQ(died.filled, LIFE_N);
    CHECK_EQ(clReleaseEvent(done), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

int main(void)
{
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    cl_int err = 1;
    char names[1024] = "";
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS,
                             sizeof(names), names, NULL),
             CL_SUCCESS);
    program = clCreateProgramWithBuiltInKernels(context, 1, &device, names,
                                                &err);
    CHECK_EQ(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return 1;

    check_fill_uchar();
    check_fill_ulong();
    check_iota();
    check_copy_into_sub_buffer();
    check_lookup();
    check_saxpy();
    check_reduce();
    check_cpu_id();
    check_foreign_and_released();
    check_read_only_import();
    check_svm();
    check_native_mem_list();
    check_pending_keeps_buffer(false);
    check_pending_keeps_buffer(true);

    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/buffer: clCreateBuffer and clCreateBufferWithProperties with every
 * flag rule, size and host-pointer rule; clCreateSubBuffer with its bounds,
 * alignment and flag inheritance; every clGetMemObjectInfo query with both
 * halves of the size query; reference counts, destructor callbacks (most
 * recent first), the loader's dispatch data, untouched large buffers that
 * cost no memory, large ones in huge pages, and every error for bad handles.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_ulong max_alloc;

#define ALIGN 128 /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */

/* clCreateBuffer must fail with @p expected and NULL. */
static void check_create_fails(cl_mem_flags flags, size_t size, void *host_ptr,
                               cl_int expected)
{
    cl_int err = 1;
    CHECK(clCreateBuffer(context, flags, size, host_ptr, &err) == NULL);
    CHECK_EQ(err, expected);
    err = 1;
    CHECK(clCreateBufferWithProperties(context, NULL, flags, size, host_ptr,
                                       &err) == NULL);
    CHECK_EQ(err, expected);
}

static cl_ulong info_ulong(cl_mem mem, cl_mem_info name, size_t size)
{
    cl_ulong value = 0;
    size_t got = 0;
    CHECK_EQ(clGetMemObjectInfo(mem, name, sizeof(value), &value, &got),
             CL_SUCCESS);
    CHECK_EQ(got, size);
    return value;
}

static void *info_ptr(cl_mem mem, cl_mem_info name)
{
    void *value = (void *)1;
    size_t got = 0;
    CHECK_EQ(clGetMemObjectInfo(mem, name, sizeof(value), &value, &got),
             CL_SUCCESS);
    CHECK_EQ(got, sizeof(value));
    return value;
}

static cl_uint refcount(cl_mem mem)
{
    return (cl_uint)info_ulong(mem, CL_MEM_REFERENCE_COUNT, sizeof(cl_uint));
}

static void write_bytes(cl_mem mem, size_t offset, const void *src, size_t n)
{
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, offset, n, src, 0,
                                  NULL, NULL),
             CL_SUCCESS);
}

static void read_bytes(cl_mem mem, size_t offset, void *dst, size_t n)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, offset, n, dst, 0, NULL,
                                 NULL),
             CL_SUCCESS);
}

/* ---- creation ---------------------------------------------------------- */

static void check_flags(void)
{
    char host[256];
    const cl_mem_flags good[] = {
        0,
        CL_MEM_READ_WRITE,
        CL_MEM_WRITE_ONLY,
        CL_MEM_READ_ONLY,
        CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_ALLOC_HOST_PTR,
    };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        cl_mem mem = test_buffer(context, good[i], 64, NULL);
        /* "Return the flags argument value specified". */
        CHECK_EQ(info_ulong(mem, CL_MEM_FLAGS, sizeof(cl_mem_flags)),
                 good[i]);
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
    const cl_mem_flags with_ptr[] = {
        CL_MEM_USE_HOST_PTR,
        CL_MEM_COPY_HOST_PTR,
        CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
    };
    for (size_t i = 0; i < sizeof(with_ptr) / sizeof(with_ptr[0]); i++) {
        cl_mem mem = test_buffer(context, with_ptr[i], sizeof(host), host);
        CHECK_EQ(info_ulong(mem, CL_MEM_FLAGS, sizeof(cl_mem_flags)),
                 with_ptr[i]);
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
    /* CL_INVALID_VALUE "if values specified in flags are not valid". */
    const cl_mem_flags bad[] = {
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        CL_MEM_KERNEL_READ_AND_WRITE,
        CL_MEM_SVM_FINE_GRAIN_BUFFER,
        (cl_mem_flags)1 << 40,
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        check_create_fails(bad[i], 64, NULL, CL_INVALID_VALUE);
    check_create_fails(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host,
                       CL_INVALID_VALUE);
    check_create_fails(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host,
                       CL_INVALID_VALUE);
}

static void check_sizes_and_host_ptr(void)
{
    char host[64];
    /* CL_INVALID_BUFFER_SIZE "if size is zero", "if size is greater than
     * CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context". */
    check_create_fails(0, 0, NULL, CL_INVALID_BUFFER_SIZE);
    check_create_fails(0, (size_t)max_alloc + 1, NULL, CL_INVALID_BUFFER_SIZE);
    check_create_fails(0, SIZE_MAX, NULL, CL_INVALID_BUFFER_SIZE);
    check_create_fails(CL_MEM_USE_HOST_PTR, SIZE_MAX, host,
                       CL_INVALID_BUFFER_SIZE);
    /* The largest allowed size is allowed (and costs nothing untouched). */
    cl_mem largest = test_buffer(context, 0, (size_t)max_alloc, NULL);
    CHECK_EQ(info_ulong(largest, CL_MEM_SIZE, sizeof(size_t)), max_alloc);
    CHECK_EQ(clReleaseMemObject(largest), CL_SUCCESS);
    /* CL_INVALID_HOST_PTR "if host_ptr is NULL, and CL_MEM_USE_HOST_PTR or
     * CL_MEM_COPY_HOST_PTR are set", "if host_ptr is not NULL but
     * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set". */
    check_create_fails(CL_MEM_USE_HOST_PTR, 64, NULL, CL_INVALID_HOST_PTR);
    check_create_fails(CL_MEM_COPY_HOST_PTR, 64, NULL, CL_INVALID_HOST_PTR);
    check_create_fails(0, 64, host, CL_INVALID_HOST_PTR);
    check_create_fails(CL_MEM_ALLOC_HOST_PTR, 64, host, CL_INVALID_HOST_PTR);
    /* The spec's order: CL_INVALID_VALUE before CL_INVALID_BUFFER_SIZE
     * before CL_INVALID_HOST_PTR. */
    check_create_fails(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, host,
                       CL_INVALID_VALUE);
    check_create_fails(0, 0, host, CL_INVALID_BUFFER_SIZE);
    /* errcode_ret may be NULL. */
    CHECK(clCreateBuffer(context, 0, 0, NULL, NULL) == NULL);
    cl_mem mem = clCreateBuffer(context, 0, 16, NULL, NULL);
    CHECK(mem != NULL);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

static void check_properties(void)
{
    cl_int err = 1;
    /* NULL: "param_value_size_ret equal to 0". */
    cl_mem mem =
        clCreateBufferWithProperties(context, NULL, 0, 64, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    size_t size = 99;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, 0);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    /* clCreateBuffer: likewise. */
    mem = test_buffer(context, 0, 64, NULL);
    size = 99;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, 0);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    /* An empty list is echoed as given. */
    const cl_mem_properties empty[] = {0};
    mem = clCreateBufferWithProperties(context, empty, CL_MEM_READ_ONLY, 64,
                                       NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem_properties got[4] = {7, 7, 7, 7};
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, sizeof(got), got,
                                &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_mem_properties));
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[1], 7);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    /* CL_INVALID_PROPERTY "if a property name in properties is not a
     * supported property name": there are none. */
    const cl_mem_properties unknown[] = {0x4242, 1, 0};
    /* cl_khr_external_memory's CL_MEM_DEVICE_HANDLE_LIST_KHR: an
     * extension refcl does not have. */
    const cl_mem_properties handle_list[] = {0x2051, 0, 0};
    err = 1;
    CHECK(clCreateBufferWithProperties(context, unknown, 0, 64, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_PROPERTY);
    CHECK(clCreateBufferWithProperties(context, handle_list, 0, 64, NULL,
                                       &err) == NULL);
    CHECK_EQ(err, CL_INVALID_PROPERTY);
    /* The context comes first. */
    CHECK(clCreateBufferWithProperties((cl_context)queue, unknown, 0, 0, NULL,
                                       &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
}

/* ---- contents and storage ---------------------------------------------- */

static void check_host_ptr_storage(void)
{
    /* CL_MEM_COPY_HOST_PTR copies at once: host memory is free again. */
    unsigned char host[300];
    for (size_t i = 0; i < sizeof(host); i++)
        host[i] = (unsigned char)i;
    cl_mem copy =
        test_buffer(context, CL_MEM_COPY_HOST_PTR, sizeof(host), host);
    memset(host, 0, sizeof(host));
    unsigned char back[300];
    read_bytes(copy, 0, back, sizeof(back));
    for (size_t i = 0; i < sizeof(back); i++)
        CHECK_EQ(back[i], (unsigned char)i);
    CHECK(info_ptr(copy, CL_MEM_HOST_PTR) == NULL);
    CHECK_EQ(clReleaseMemObject(copy), CL_SUCCESS);

    /* CL_MEM_USE_HOST_PTR: the application's memory is the storage, at
     * any alignment. */
    cl_mem use = test_buffer(context, CL_MEM_USE_HOST_PTR, 100, host + 3);
    CHECK(info_ptr(use, CL_MEM_HOST_PTR) == host + 3);
    unsigned char data[100];
    memset(data, 0x5a, sizeof(data));
    write_bytes(use, 0, data, sizeof(data));
    CHECK_EQ(host[3], 0x5a);
    CHECK_EQ(host[102], 0x5a);
    CHECK_EQ(host[103], 0);
    CHECK_EQ(host[2], 0);
    host[50] = 0x11;
    read_bytes(use, 47, data, 1);
    CHECK_EQ(data[0], 0x11);
    CHECK_EQ(clReleaseMemObject(use), CL_SUCCESS);

    /* A fresh buffer reads as zeros, small and large. */
    const size_t sizes[] = {1, 4096, 1 << 20};
    for (size_t s = 0; s < 3; s++) {
        cl_mem mem =
            test_buffer(context, CL_MEM_ALLOC_HOST_PTR, sizes[s], NULL);
        unsigned char last[1] = {9};
        read_bytes(mem, sizes[s] - 1, last, 1);
        CHECK_EQ(last[0], 0);
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
}

/* The KiB on the line of /proc/self/@p file that starts with @p key, or
 * -1. */
static long proc_kib(const char *file, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof(path), "/proc/self/%s", file);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f && kib < 0 && fgets(line, sizeof(line), f))
        if (strncmp(line, key, strlen(key)) == 0)
            kib = strtol(line + strlen(key), NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* VmRSS of this process, KiB. */
static long rss_kib(void)
{
    return proc_kib("status", "VmRSS:");
}

/* "a 1 GiB buffer costs no RSS until written": created, mapped and its
 * last page written, it has cost one page and the bookkeeping. */
static void check_untouched_gib(void)
{
    const size_t gib = (size_t)1 << 30;
    if (max_alloc < gib) {
        fprintf(stderr, "CL_DEVICE_MAX_MEM_ALLOC_SIZE below 1 GiB: "
                        "untouched-buffer check skipped\n");
        return;
    }
    if (test_emulator()) {
        fprintf(stderr, "under %s, whose translated code counts in VmRSS: "
                        "untouched-buffer check skipped\n", test_emulator());
        return;
    }
    long before = rss_kib();
    cl_mem mem = test_buffer(context, CL_MEM_ALLOC_HOST_PTR, gib, NULL);
    cl_int err = 1;
    unsigned char *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE,
                                          gib - 16, 16, 0, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    if (p) {
        p[15] = 1;
        CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL),
                 CL_SUCCESS);
    }
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    long after = rss_kib();
    fprintf(stderr, "1 GiB buffer, one page written: VmRSS +%ld KiB\n",
            after - before);
    CHECK(after - before < 4096);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

/* AnonHugePages of this process, KiB, or -1. */
static long huge_kib(void)
{
    return proc_kib("smaps_rollup", "AnonHugePages:");
}

/* True if the kernel gives transparent huge pages to a region that asks
 * (THP "always" or "madvise"), natively. */
static bool huge_pages_on_request(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char mode[128] = "";
    if (f) {
        if (!fgets(mode, sizeof(mode), f))
            mode[0] = 0;
        fclose(f);
    }
    return !test_emulator() &&
           (strstr(mode, "[always]") || strstr(mode, "[madvise]"));
}

/* Buffers of @p size, created and released 64 times, leave no mapping
 * behind (the alignment's slack is given back whole). */
static void check_huge_buffers_unmapped(size_t size)
{
    if (test_emulator()) {
        fprintf(stderr, "under %s, which keeps its own mappings: mapping "
                        "check skipped\n", test_emulator());
        return;
    }
    size_t before = test_mapped_bytes();
    for (int i = 0; i < 64; i++) {
        cl_mem mem = test_buffer(context, 0, size, NULL);
        const unsigned char last = 1;
        write_bytes(mem, size - 1, &last, 1); /* its storage made */
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
    size_t after = test_mapped_bytes();
    long kib = ((long)after - (long)before) / 1024;
    fprintf(stderr, "64 buffers of %zu bytes created and released: "
                    "%+ld KiB mapped\n", size, kib);
    CHECK(after < before + ((size_t)8 << 20));
}

/* Buffers of 4 MiB and more start on a 2 MiB boundary and are backed by
 * huge pages where the system has them; every byte of every size around
 * that threshold holds what was written. */
static void check_huge_buffers(void)
{
    const size_t mib = (size_t)1 << 20;
    const size_t sizes[] = {4 * mib - 1, 4 * mib, 4 * mib + 1, 9 * mib + 129};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t size = sizes[i];
        long before = huge_kib();
        cl_mem mem = test_buffer(context, CL_MEM_ALLOC_HOST_PTR, size, NULL);
        cl_int err = 1;
        unsigned char *p = clEnqueueMapBuffer(queue, mem, CL_TRUE,
                                              CL_MAP_WRITE, 0, size, 0, NULL,
                                              NULL, &err);
        CHECK_EQ(err, CL_SUCCESS);
        if (!p)
            continue;
        CHECK_EQ((uintptr_t)p % (size >= 4 * mib ? 2 * mib : ALIGN), 0);
        for (size_t b = 0; b < size; b++)
            p[b] = (unsigned char)(b * 7 + 3);
        long after = huge_kib();
        if (size >= 4 * mib && huge_pages_on_request())
            CHECK(after - before >= 2048);
        CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL),
                 CL_SUCCESS);
        unsigned char tail[3];
        read_bytes(mem, size - sizeof(tail), tail, sizeof(tail));
        for (size_t b = 0; b < sizeof(tail); b++)
            CHECK_EQ(tail[b], (unsigned char)((size - 3 + b) * 7 + 3));
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
    check_huge_buffers_unmapped(4 * mib + 1);
}

/* ---- info -------------------------------------------------------------- */

static void check_info(void)
{
    char host[512];
    cl_mem mem = test_buffer(context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY,
                             sizeof(host), host);
    CHECK_EQ(info_ulong(mem, CL_MEM_TYPE, sizeof(cl_mem_object_type)),
             CL_MEM_OBJECT_BUFFER);
    CHECK_EQ(info_ulong(mem, CL_MEM_SIZE, sizeof(size_t)), sizeof(host));
    CHECK(info_ptr(mem, CL_MEM_HOST_PTR) == host);
    CHECK_EQ(info_ulong(mem, CL_MEM_MAP_COUNT, sizeof(cl_uint)), 0);
    CHECK_EQ(refcount(mem), 1);
    CHECK(info_ptr(mem, CL_MEM_CONTEXT) == context);
    CHECK(info_ptr(mem, CL_MEM_ASSOCIATED_MEMOBJECT) == NULL);
    CHECK_EQ(info_ulong(mem, CL_MEM_OFFSET, sizeof(size_t)), 0);
    CHECK_EQ(info_ulong(mem, CL_MEM_USES_SVM_POINTER, sizeof(cl_bool)),
             CL_FALSE);

    /* The two-call size rule and untouched outputs. */
    size_t size = 0;
    cl_uint small = 77;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_SIZE, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(size_t));
    size = 5;
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(small), &small,
                                &size),
             CL_INVALID_VALUE);
    CHECK_EQ(small, 77);
    CHECK_EQ(size, 5);
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, 0, &small, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof(small), &small,
                                NULL),
             CL_SUCCESS);
    /* Unknown names: images' and other extensions' queries. */
    const cl_mem_info unknown[] = {0, 0x1100 - 1, CL_MEM_PROPERTIES + 1,
                                   CL_IMAGE_FORMAT,
                                   0x4015 /* CL_MEM_D3D10_RESOURCE_KHR */};
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
        CHECK_EQ(clGetMemObjectInfo(mem, unknown[i], sizeof(host), host,
                                    NULL),
                 CL_INVALID_VALUE);
    /* Images are not buffers' business. */
    CHECK_EQ(clGetImageInfo(mem, CL_IMAGE_WIDTH, sizeof(size), &size, NULL),
             CL_INVALID_MEM_OBJECT);
    CHECK_EQ(clGetPipeInfo(mem, CL_PIPE_PACKET_SIZE, sizeof(small), &small,
                           NULL),
             CL_INVALID_MEM_OBJECT);

    /* Every object carries the loader's dispatch data, as its context. */
    CHECK(test_object_word(mem, 0) == test_object_word(context, 0));
    CHECK(test_object_word(mem, 1) == test_object_word(context, 1));
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

/* ---- reference counts and destructor callbacks -------------------------- */

#define LOG_MAX 8
static int order_log[LOG_MAX];
static int order_count;
static cl_mem destroyed_mem;

static void CL_CALLBACK destructor(cl_mem mem, void *tag)
{
    destroyed_mem = mem;
    if (order_count < LOG_MAX)
        order_log[order_count] = (int)(intptr_t)tag;
    order_count++;
}

static cl_uint context_refcount(void)
{
    cl_uint count = 0;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT,
                              sizeof(count), &count, NULL),
             CL_SUCCESS);
    return count;
}

static void check_lifetime(void)
{
    cl_uint context_refs = context_refcount();
    cl_mem mem = test_buffer(context, 0, 64, NULL);
    /* Every memory object holds its context. */
    CHECK_EQ(context_refcount(), context_refs + 1);
    CHECK_EQ(clRetainMemObject(mem), CL_SUCCESS);
    CHECK_EQ(refcount(mem), 2);
    order_count = 0;
    for (int i = 1; i <= 3; i++)
        CHECK_EQ(clSetMemObjectDestructorCallback(mem, destructor,
                                                  (void *)(intptr_t)i),
                 CL_SUCCESS);
    /* CL_INVALID_VALUE "if pfn_notify is NULL". */
    CHECK_EQ(clSetMemObjectDestructorCallback(mem, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(order_count, 0);
    CHECK_EQ(refcount(mem), 1);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    /* "called in the reverse order in which they were registered", before
     * the last release returns. */
    CHECK_EQ(order_count, 3);
    CHECK_EQ(order_log[0], 3);
    CHECK_EQ(order_log[1], 2);
    CHECK_EQ(order_log[2], 1);
    CHECK(destroyed_mem == mem);
    CHECK_EQ(context_refcount(), context_refs);
    /* Released: every entry point says so. */
    CHECK_EQ(clRetainMemObject(mem), CL_INVALID_MEM_OBJECT);
    CHECK_EQ(clReleaseMemObject(mem), CL_INVALID_MEM_OBJECT);

    /* A buffer keeps its context alive after the application let go. */
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem orphan = clCreateBuffer(other, 0, 8, NULL, &err);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    CHECK(info_ptr(orphan, CL_MEM_CONTEXT) == other);
    cl_uint refs = 0;
    CHECK_EQ(clGetContextInfo(other, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 1);
    CHECK_EQ(clReleaseMemObject(orphan), CL_SUCCESS);
    CHECK_EQ(clGetContextInfo(other, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_INVALID_CONTEXT);
}

/* ---- sub-buffers ---------------------------------------------------------- */

static cl_int sub_fails(cl_mem parent, cl_mem_flags flags, size_t origin,
                        size_t size)
{
    cl_buffer_region region = {origin, size};
    cl_int err = 1;
    CHECK(clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION,
                            &region, &err) == NULL);
    return err;
}

static void check_sub_buffers(void)
{
    unsigned char host[1024];
    for (size_t i = 0; i < sizeof(host); i++)
        host[i] = (unsigned char)(i * 7);
    cl_mem parent =
        test_buffer(context, CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY,
                    sizeof(host), host);
    cl_mem sub = test_sub_buffer(parent, 0, 2 * ALIGN, 300);
    CHECK_EQ(refcount(parent), 2); /* a sub-buffer holds its buffer */
    CHECK_EQ(info_ulong(sub, CL_MEM_SIZE, sizeof(size_t)), 300);
    CHECK_EQ(info_ulong(sub, CL_MEM_OFFSET, sizeof(size_t)), 2 * ALIGN);
    CHECK(info_ptr(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
    CHECK(info_ptr(sub, CL_MEM_CONTEXT) == context);
    /* "the host_ptr associated with the buffer object returned is host_ptr
     * + origin"; the host pointer and host access flags are inherited. */
    CHECK(info_ptr(sub, CL_MEM_HOST_PTR) == host + 2 * ALIGN);
    CHECK_EQ(info_ulong(sub, CL_MEM_FLAGS, sizeof(cl_mem_flags)),
             CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY);
    unsigned char b = 0;
    read_bytes(sub, 10, &b, 1);
    CHECK_EQ(b, (unsigned char)((2 * ALIGN + 10) * 7));
    /* Host access is inherited: no writes. */
    CHECK_EQ(clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, 1, &b, 0, NULL,
                                  NULL),
             CL_INVALID_OPERATION);
    CHECK(test_object_word(sub, 1) == test_object_word(parent, 1));

    /* No sub-buffer of a sub-buffer. */
    CHECK_EQ(sub_fails(sub, 0, 0, 16), CL_INVALID_MEM_OBJECT);
    /* The parent outlives the application's reference. */
    CHECK_EQ(clReleaseMemObject(parent), CL_SUCCESS);
    read_bytes(sub, 0, &b, 1);
    CHECK_EQ(b, (unsigned char)(2 * ALIGN * 7));
    CHECK(info_ptr(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    CHECK_EQ(clRetainMemObject(parent), CL_INVALID_MEM_OBJECT);

    /* Bounds, alignment and sizes. */
    cl_mem rw = test_buffer(context, 0, 4 * ALIGN, NULL);
    CHECK_EQ(sub_fails(rw, 0, 0, 4 * ALIGN + 1), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, 0, 4 * ALIGN, 1), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, 0, SIZE_MAX - 63, 64), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, 0, 64, SIZE_MAX), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, 0, ALIGN, 0), CL_INVALID_BUFFER_SIZE);
    CHECK_EQ(sub_fails(rw, 0, ALIGN / 2, 8), CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_mem whole = test_sub_buffer(rw, 0, 0, 4 * ALIGN);
    cl_mem last = test_sub_buffer(rw, 0, 3 * ALIGN, ALIGN);
    cl_int err = 1;
    cl_buffer_region region = {0, 8};
    CHECK(clCreateSubBuffer(rw, 0, CL_BUFFER_CREATE_TYPE_REGION + 1, &region,
                            &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateSubBuffer(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    /* Host pointer flags "cannot be specified", others must be valid. */
    CHECK_EQ(sub_fails(rw, CL_MEM_USE_HOST_PTR, 0, 8), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, CL_MEM_ALLOC_HOST_PTR, 0, 8), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, CL_MEM_COPY_HOST_PTR, 0, 8), CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, 8),
             CL_INVALID_VALUE);
    CHECK_EQ(sub_fails(rw, (cl_mem_flags)1 << 40, 0, 8), CL_INVALID_VALUE);
    /* A read-write buffer allows any access, and sub-buffers may overlap. */
    cl_mem ro =
        test_sub_buffer(rw, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 0, 64);
    CHECK_EQ(info_ulong(ro, CL_MEM_FLAGS, sizeof(cl_mem_flags)),
             CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    /* Writes through a sub-buffer show in its buffer and its siblings. */
    unsigned char v = 0x77;
    write_bytes(last, 5, &v, 1);
    v = 0;
    read_bytes(whole, 3 * ALIGN + 5, &v, 1);
    CHECK_EQ(v, 0x77);
    cl_mem mems[] = {whole, last, ro, rw};
    for (int i = 0; i < 4; i++)
        CHECK_EQ(clReleaseMemObject(mems[i]), CL_SUCCESS);

    /* Conflicting access qualifiers. */
    const struct {
        cl_mem_flags parent, sub;
        cl_int expected;
    } cases[] = {
        {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE},
        {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, CL_INVALID_VALUE},
        {CL_MEM_WRITE_ONLY, CL_MEM_WRITE_ONLY, CL_SUCCESS},
        {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE},
        {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_INVALID_VALUE},
        {CL_MEM_READ_ONLY, 0, CL_SUCCESS},
        {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE},
        {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_NO_ACCESS, CL_SUCCESS},
        {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE},
        {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE},
        {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE},
        {0, CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, CL_SUCCESS},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cl_mem p = test_buffer(context, cases[i].parent | CL_MEM_ALLOC_HOST_PTR,
                               256, NULL);
        cl_buffer_region r = {ALIGN, 64};
        err = 1;
        cl_mem s = clCreateSubBuffer(p, cases[i].sub,
                                     CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        CHECK_EQ(err, cases[i].expected);
        if (s) {
            /* Unspecified qualifiers are inherited, host pointer flags
             * always. */
            cl_mem_flags want = cases[i].sub | CL_MEM_ALLOC_HOST_PTR;
            if (!(cases[i].sub & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY |
                                  CL_MEM_WRITE_ONLY)))
                want |= cases[i].parent & (CL_MEM_READ_WRITE |
                                           CL_MEM_READ_ONLY |
                                           CL_MEM_WRITE_ONLY);
            if (!(cases[i].sub & (CL_MEM_HOST_WRITE_ONLY |
                                  CL_MEM_HOST_READ_ONLY |
                                  CL_MEM_HOST_NO_ACCESS)))
                want |= cases[i].parent & (CL_MEM_HOST_WRITE_ONLY |
                                           CL_MEM_HOST_READ_ONLY |
                                           CL_MEM_HOST_NO_ACCESS);
            CHECK_EQ(info_ulong(s, CL_MEM_FLAGS, sizeof(cl_mem_flags)), want);
            CHECK_EQ(clReleaseMemObject(s), CL_SUCCESS);
        }
        CHECK_EQ(clReleaseMemObject(p), CL_SUCCESS);
    }
}

/* ---- bad handles ---------------------------------------------------------- */

static void check_bad_handles(void)
{
    cl_mem released = test_buffer(context, 0, 8, NULL);
    CHECK_EQ(clReleaseMemObject(released), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, released, queue, context);
    for (int i = 0; i < count; i++) {
        size_t size = 3;
        cl_int err = 1;
        CHECK_EQ(clGetMemObjectInfo(bad[i], CL_MEM_SIZE, sizeof(size), &size,
                                    NULL),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(size, 3);
        CHECK_EQ(clRetainMemObject(bad[i]), CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clReleaseMemObject(bad[i]), CL_INVALID_MEM_OBJECT);
        CHECK_EQ(clSetMemObjectDestructorCallback(bad[i], destructor, NULL),
                 CL_INVALID_MEM_OBJECT);
        cl_buffer_region region = {0, 8};
        CHECK(clCreateSubBuffer(bad[i], 0, CL_BUFFER_CREATE_TYPE_REGION,
                                &region, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_MEM_OBJECT);
    }
    /* Contexts: a queue, a buffer, released. */
    cl_int err;
    cl_context gone = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(clReleaseContext(gone), CL_SUCCESS);
    count = test_bad_handles(bad, gone, queue, released);
    for (int i = 0; i < count; i++) {
        err = 1;
        CHECK(clCreateBuffer(bad[i], 0, 8, NULL, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
        err = 1;
        CHECK(clCreateBufferWithProperties(bad[i], NULL, 0, 8, NULL, &err) ==
              NULL);
        CHECK_EQ(err, CL_INVALID_CONTEXT);
    }
}

int main(void)
{
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                             sizeof(max_alloc), &max_alloc, NULL),
             CL_SUCCESS);
    cl_uint align_bits = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                             sizeof(align_bits), &align_bits, NULL),
             CL_SUCCESS);
    CHECK_EQ(align_bits, ALIGN * 8);
    check_flags();
    check_sizes_and_host_ptr();
    check_properties();
    check_host_ptr_storage();
    check_untouched_gib();
    check_huge_buffers();
    check_info();
    check_lifetime();
    check_sub_buffers();
    check_bad_handles();
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

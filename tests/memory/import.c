/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/import: cl_arm_import_memory and cl_arm_import_memory_host.
 * clImportMemoryARM is reached through the extension lookup, in every
 * mode; an import of host memory at any alignment is zero-copy (commands
 * and maps see and change the application's bytes) and carries the
 * loader's dispatch data; every error of the extension: the context, the
 * flags, the properties, NULL memory, pages that are not mapped (found
 * without touching them: a PROT_NONE page or a hole in the range never
 * faults), imports sharing a page with different flags; pages
 * that are read-only make a read-only object. With no file descriptor left
 * to read the mappings with, an import of valid memory is
 * CL_OUT_OF_HOST_MEMORY, not the application's CL_INVALID_OPERATION
 * (the process is short of resources, the memory is fine), and works again
 * once descriptors are free.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
/* Bookworm's headers declare clImportMemoryARM but no pointer type. */
typedef cl_mem(CL_API_CALL *import_fn)(cl_context, cl_mem_flags,
                                       const cl_import_properties_arm *,
                                       void *, size_t, cl_int *);
static import_fn import;
static size_t page;

#define ALIGN 128

static cl_mem import_ok(cl_mem_flags flags,
                        const cl_import_properties_arm *properties,
                        void *memory, size_t size)
{
    cl_int err = 1;
    cl_mem mem = import(context, flags, properties, memory, size, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(mem != NULL);
    return mem;
}

static cl_int import_fails(cl_context ctx, cl_mem_flags flags,
                           const cl_import_properties_arm *properties,
                           void *memory, size_t size)
{
    cl_int err = 1;
    CHECK(import(ctx, flags, properties, memory, size, &err) == NULL);
    return err;
}

static void *info_ptr(cl_mem mem, cl_mem_info name)
{
    void *value = (void *)1;
    CHECK_EQ(clGetMemObjectInfo(mem, name, sizeof(value), &value, NULL),
             CL_SUCCESS);
    return value;
}

static cl_ulong info_ulong(cl_mem mem, cl_mem_info name)
{
    cl_ulong value = 0;
    CHECK_EQ(clGetMemObjectInfo(mem, name, sizeof(value), &value, NULL),
             CL_SUCCESS);
    return value;
}

/* ---- the extension ------------------------------------------------------ */

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

static void check_extension(void)
{
    char extensions[2048];
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(extensions),
                             extensions, NULL),
             CL_SUCCESS);
    CHECK(has_word(extensions, "cl_arm_import_memory"));
    CHECK(has_word(extensions, "cl_arm_import_memory_host"));
    /* The platform-less lookup: loaders answer it by the name's suffix
     * (cl_khr_icd), "ARM" names no vendor, so only refcl itself finds it
     * there. */
    void *plain = clGetExtensionFunctionAddress("clImportMemoryARM");
    CHECK(plain == (test_through_loader() ? NULL : (void *)import));
    CHECK(clGetExtensionFunctionAddressForPlatform(platform,
                                                   "clImportMemoryARMX") ==
          NULL);
}

/* ---- host imports, zero-copy ------------------------------------------- */

static void check_zero_copy(void)
{
    /* Unaligned memory from malloc, an odd size. */
    unsigned char *block = malloc(1000);
    unsigned char *memory = block + 3;
    for (int i = 0; i < 900; i++)
        memory[i] = (unsigned char)i;
    cl_mem mem = import_ok(CL_MEM_READ_WRITE, NULL, memory, 901);
    CHECK_EQ(info_ulong(mem, CL_MEM_SIZE), 901);
    CHECK_EQ(info_ulong(mem, CL_MEM_TYPE), CL_MEM_OBJECT_BUFFER);
    CHECK_EQ(info_ulong(mem, CL_MEM_FLAGS), CL_MEM_READ_WRITE);
    CHECK(info_ptr(mem, CL_MEM_HOST_PTR) == NULL);
    CHECK(info_ptr(mem, CL_MEM_CONTEXT) == context);
    CHECK(test_object_word(mem, 0) == test_object_word(context, 0));
    CHECK(test_object_word(mem, 1) == test_object_word(context, 1));

    /* Commands read and write the application's bytes themselves. */
    unsigned char b = 0;
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 899, 1, &b, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(b, (unsigned char)899);
    b = 0xee;
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 900, 1, &b, 0, NULL,
                                  NULL),
             CL_SUCCESS);
    CHECK_EQ(memory[900], 0xee);
    unsigned char *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE,
                                          10, 20, 0, NULL, NULL, NULL);
    CHECK(p == memory + 10);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL),
             CL_SUCCESS);
    const unsigned short pattern = 0x0102;
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, &pattern, 2, 100, 10, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    /* Copies with an ordinary buffer, a sub-buffer of the import. */
    cl_int err;
    cl_mem plain = clCreateBuffer(context, 0, 901, NULL, &err);
    CHECK_EQ(clEnqueueCopyBuffer(queue, mem, plain, 0, 0, 901, 0, NULL, NULL),
             CL_SUCCESS);
    cl_buffer_region region = {ALIGN, 64};
    cl_mem sub = clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clEnqueueCopyBuffer(queue, plain, sub, 0, 0, 64, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(memory[ALIGN], 0);
    CHECK_EQ(memory[ALIGN + 63], 63);
    CHECK_EQ(memory[100], 0x02);
    CHECK_EQ(memory[101], 0x01);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(plain), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    /* The memory stays the application's. */
    memory[0] = 1;
    free(block);

    /* The default properties, spelled three ways; host flags, and
     * CL_MEM_USE_HOST_PTR and CL_MEM_ALLOC_HOST_PTR, which do nothing. */
    static unsigned char area[256];
    const cl_import_properties_arm none[] = {0};
    const cl_import_properties_arm host[] = {CL_IMPORT_TYPE_ARM,
                                             CL_IMPORT_TYPE_HOST_ARM, 0};
    const cl_mem_flags flags[] = {
        0, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY, CL_MEM_ALLOC_HOST_PTR};
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        const cl_import_properties_arm *props =
            i % 3 == 0 ? NULL : i % 3 == 1 ? none : host;
        mem = import_ok(flags[i], props, area, sizeof(area));
        CHECK_EQ(info_ulong(mem, CL_MEM_FLAGS), flags[i]);
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
    /* errcode_ret may be NULL. */
    mem = import(context, 0, NULL, area, 8, NULL);
    CHECK(mem != NULL);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK(import(context, 0, NULL, NULL, 8, NULL) == NULL);
}

/* ---- errors ------------------------------------------------------------ */

static void check_arguments(void)
{
    static unsigned char area[64];
    /* "CL_INVALID_CONTEXT on invalid context." */
    cl_mem released = clCreateBuffer(context, 0, 8, NULL, NULL);
    CHECK_EQ(clReleaseMemObject(released), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, released, queue, device);
    for (int i = 0; i < count; i++)
        CHECK_EQ(import_fails(bad[i], 0, NULL, area, 8), CL_INVALID_CONTEXT);
    /* "CL_INVALID_VALUE on invalid flag input": no copies, no unknown or
     * exclusive bits. */
    const cl_mem_flags flags[] = {
        CL_MEM_COPY_HOST_PTR,
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_KERNEL_READ_AND_WRITE,
        (cl_mem_flags)1 << 50,
    };
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        CHECK_EQ(import_fails(context, flags[i], NULL, area, 8),
                 CL_INVALID_VALUE);
    /* "CL_INVALID_VALUE when invalid properties are passed". */
    const cl_import_properties_arm unknown[] = {0x40B3, 1, 0};
    const cl_import_properties_arm bad_type[] = {CL_IMPORT_TYPE_ARM, 42, 0};
    const cl_import_properties_arm protected_type[] = {
        CL_IMPORT_TYPE_ARM, CL_IMPORT_TYPE_PROTECTED_ARM, 0};
    const cl_import_properties_arm twice[] = {
        CL_IMPORT_TYPE_ARM, CL_IMPORT_TYPE_HOST_ARM, CL_IMPORT_TYPE_ARM,
        CL_IMPORT_TYPE_HOST_ARM, 0};
    const cl_import_properties_arm later[] = {
        CL_IMPORT_DMA_BUF_DATA_CONSISTENCY_WITH_HOST_ARM, 1, 0};
    const cl_import_properties_arm *bad_props[] = {unknown, bad_type,
                                                   protected_type, twice,
                                                   later};
    for (size_t i = 0; i < sizeof(bad_props) / sizeof(bad_props[0]); i++)
        CHECK_EQ(import_fails(context, 0, bad_props[i], area, 8),
                 CL_INVALID_VALUE);
    /* "CL_INVALID_VALUE if memory is NULL." */
    CHECK_EQ(import_fails(context, 0, NULL, NULL, 8), CL_INVALID_VALUE);
    CHECK_EQ(import_fails(context, 0, NULL, NULL, 0), CL_INVALID_VALUE);
    /* No bytes: not a buffer; and host memory has no whole allocation. */
    CHECK_EQ(import_fails(context, 0, NULL, area, 0), CL_INVALID_BUFFER_SIZE);
    CHECK_EQ(import_fails(context, 0, NULL, area,
                          CL_IMPORT_MEMORY_WHOLE_ALLOCATION_ARM),
             CL_INVALID_BUFFER_SIZE);
    /* A type whose extension string is not listed: CL_INVALID_OPERATION. */
    char extensions[2048];
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(extensions),
                             extensions, NULL),
             CL_SUCCESS);
    if (!strstr(extensions, "cl_arm_import_memory_dma_buf")) {
        const cl_import_properties_arm dma_buf[] = {
            CL_IMPORT_TYPE_ARM, CL_IMPORT_TYPE_DMA_BUF_ARM, 0};
        int fd = 0;
        CHECK_EQ(import_fails(context, 0, dma_buf, &fd, 8),
                 CL_INVALID_OPERATION);
    }
}

/* "CL_INVALID_OPERATION when host virtual pages in the range of <memory>
 * to <memory>+<size> are not mapped": found out without a fault. */
static void check_unmapped_pages(void)
{
    unsigned char *pages = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(pages != MAP_FAILED);
    /* A hole at the third page, PROT_NONE at the fourth. */
    CHECK_EQ(munmap(pages + 2 * page, page), 0);
    CHECK_EQ(mprotect(pages + 3 * page, page, PROT_NONE), 0);
    cl_mem mem = import_ok(0, NULL, pages + 1, 2 * page - 1);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(import_fails(context, 0, NULL, pages + 1, 2 * page),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, 0, NULL, pages + 2 * page, 1),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, 0, NULL, pages + 3 * page + 5, 1),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, 0, NULL, pages, 4 * page),
             CL_INVALID_OPERATION);
    /* Past the end of the address space. */
    CHECK_EQ(import_fails(context, 0, NULL, pages, SIZE_MAX - 1),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, 0, NULL,
                          (void *)(uintptr_t)(UINTPTR_MAX - 10), 8),
             CL_INVALID_OPERATION);
    /* Never-mapped addresses. */
    CHECK_EQ(import_fails(context, 0, NULL, test_unmapped_handle(), 16),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, 0, NULL, (void *)(uintptr_t)page, 16),
             CL_INVALID_OPERATION);
    munmap(pages, 2 * page);
    munmap(pages + 3 * page, page);
}

/* Descriptors opened on /dev/null until none is left under a limit of
 * what is open now plus a few: every gap below the limit filled. */
#define SPARE_FDS 8
static int exhaust_fds(struct rlimit *old, int *fds, int room)
{
    int highest = -1;
    for (int fd = 0; fd < 4096; fd++)
        if (fcntl(fd, F_GETFD) != -1)
            highest = fd;
    CHECK_EQ(getrlimit(RLIMIT_NOFILE, old), 0);
    struct rlimit tight = {(rlim_t)highest + 1 + SPARE_FDS, old->rlim_max};
    CHECK_EQ(setrlimit(RLIMIT_NOFILE, &tight), 0);
    int n = 0;
    while (n < room && (fds[n] = open("/dev/null", O_RDONLY)) >= 0)
        n++;
    CHECK(n < room);
    CHECK_EQ(errno, EMFILE);
    return n;
}

static void check_no_descriptors(void)
{
    static unsigned char bytes[64];
    int fds[4096];
    struct rlimit old;
    int n = exhaust_fds(&old, fds, (int)(sizeof(fds) / sizeof(fds[0])));
    CHECK_EQ(import_fails(context, 0, NULL, bytes, sizeof(bytes)),
             CL_OUT_OF_HOST_MEMORY);
    /* Memory that is not mapped is the application's fault, but refcl
     * cannot tell without the mappings: the same answer. */
    CHECK_EQ(import_fails(context, 0, NULL, test_unmapped_handle(), 16),
             CL_OUT_OF_HOST_MEMORY);
    for (int i = 0; i < n; i++)
        close(fds[i]);
    CHECK_EQ(setrlimit(RLIMIT_NOFILE, &old), 0);
    cl_mem mem = import_ok(0, NULL, bytes, sizeof(bytes));
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

/* Pages refcl may read but not write: a read-only object that no command
 * writes. */
static void check_read_only_pages(void)
{
    unsigned char *pages = mmap(NULL, page, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    pages[7] = 7;
    CHECK_EQ(mprotect(pages, page, PROT_READ), 0);
    cl_mem mem = import_ok(CL_MEM_READ_WRITE, NULL, pages, page);
    CHECK_EQ(info_ulong(mem, CL_MEM_FLAGS),
             CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY);
    unsigned char b = 0;
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 7, 1, &b, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(b, 7);
    CHECK_EQ(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 1, &b, 0, NULL,
                                  NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clEnqueueFillBuffer(queue, mem, &b, 1, 0, 8, 0, NULL, NULL),
             CL_INVALID_OPERATION);
    cl_int err;
    cl_mem plain = clCreateBuffer(context, 0, 8, NULL, &err);
    CHECK_EQ(clEnqueueCopyBuffer(queue, plain, mem, 0, 0, 8, 0, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clEnqueueCopyBuffer(queue, mem, plain, 0, 0, 8, 0, NULL, NULL),
             CL_SUCCESS);
    const size_t zero[3] = {0, 0, 0}, r[3] = {8, 1, 1};
    CHECK_EQ(clEnqueueCopyBufferRect(queue, plain, mem, zero, zero, r, 0, 0, 0,
                                     0, 0, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK(clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, NULL,
                             NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_OPERATION);
    void *p = clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0, 8, 0,
                                 NULL, NULL, &err);
    CHECK(p == pages);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, mem, p, 0, NULL, NULL),
             CL_SUCCESS);
    /* Its sub-buffers too. */
    cl_buffer_region region = {ALIGN, 8};
    cl_mem sub = clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &region, &err);
    CHECK_EQ(clEnqueueFillBuffer(queue, sub, &b, 1, 0, 8, 0, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(plain), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    /* Asking for no host access keeps it. */
    mem = import_ok(CL_MEM_HOST_NO_ACCESS, NULL, pages, 8);
    CHECK_EQ(info_ulong(mem, CL_MEM_FLAGS),
             CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    munmap(pages, page);
}

/* The extension: "two unaligned allocations are imported which share a page,
 * but request different memory flags ... An error will be returned." */
static void check_shared_pages(void)
{
    unsigned char *pages = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    /* [page - 100, page + 100) and [page + 200, page + 300) share the
     * second page. */
    cl_mem first = import_ok(CL_MEM_READ_ONLY, NULL, pages + page - 100, 200);
    CHECK_EQ(import_fails(context, CL_MEM_WRITE_ONLY, NULL, pages + page + 200,
                          100),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                          NULL, pages + page + 200, 100),
             CL_INVALID_OPERATION);
    CHECK_EQ(import_fails(context, 0, NULL, pages, 1), CL_INVALID_OPERATION);
    /* The same flags share pages; so do the ignored ones. */
    cl_mem second = import_ok(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, NULL,
                              pages + page + 200, 100);
    /* Pages not shared: any flags. */
    cl_mem third = import_ok(CL_MEM_WRITE_ONLY, NULL, pages + 2 * page, 10);
    /* Another context has pages of its own. */
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem elsewhere = import(other, CL_MEM_WRITE_ONLY, NULL,
                              pages + page + 200, 100, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(elsewhere), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    /* Once the imports of the page are gone, it is free again. */
    CHECK_EQ(clReleaseMemObject(first), CL_SUCCESS);
    CHECK_EQ(import_fails(context, CL_MEM_WRITE_ONLY, NULL, pages + page, 8),
             CL_INVALID_OPERATION);
    CHECK_EQ(clReleaseMemObject(second), CL_SUCCESS);
    cl_mem now = import_ok(CL_MEM_WRITE_ONLY, NULL, pages + page, 8);
    CHECK_EQ(clReleaseMemObject(now), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(third), CL_SUCCESS);
    munmap(pages, 3 * page);
}

/* An import is released like any buffer, destructor callbacks included,
 * and leaves the memory alone. */
static int destroyed;

static void CL_CALLBACK on_destroy(cl_mem mem, void *data)
{
    (void)mem;
    destroyed += *(unsigned char *)data == 0x5a;
}

static void check_lifetime(void)
{
    unsigned char *block = malloc(64);
    block[0] = 0x5a;
    cl_mem mem = import_ok(0, NULL, block, 64);
    CHECK_EQ(clSetMemObjectDestructorCallback(mem, on_destroy, block),
             CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    CHECK_EQ(destroyed, 1);
    free(block);
}

int main(void)
{
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    page = (size_t)sysconf(_SC_PAGESIZE);
    import = (import_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clImportMemoryARM");
    if (!import) {
        fprintf(stderr, "clImportMemoryARM is not offered\n");
        return 1;
    }
    check_extension();
    check_zero_copy();
    check_arguments();
    check_unmapped_pages();
    check_no_descriptors();
    check_read_only_pages();
    check_shared_pages();
    check_lifetime();
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

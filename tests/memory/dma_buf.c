/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/dma-buf: cl_arm_import_memory_dma_buf. The test makes a dma_buf
 * itself, through udmabuf (a dma_buf over a memfd) or the system dma-heap,
 * maps it, imports it (the whole allocation and a part), writes through one
 * mapping and reads through the other, both ways; and the errors: a file
 * descriptor that is not a dma_buf, a size past its end, no bytes.
 *
 * Where the kernel can make no dma_buf, refcl must not list the extension,
 * and the test is skipped (77) saying why.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <linux/dma-heap.h>
#include <linux/udmabuf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

typedef cl_mem(CL_API_CALL *import_fn)(cl_context, cl_mem_flags,
                                       const cl_import_properties_arm *,
                                       void *, size_t, cl_int *);

#define SIZE ((size_t)64 * 1024)

static const cl_import_properties_arm dma_buf_type[] = {
    CL_IMPORT_TYPE_ARM, CL_IMPORT_TYPE_DMA_BUF_ARM, 0};

/* A dma_buf of SIZE bytes from udmabuf, or -1 with @p why. */
static int from_udmabuf(char *why, size_t room)
{
    int dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
    if (dev < 0) {
        snprintf(why, room, "/dev/udmabuf: %s", strerror(errno));
        return -1;
    }
    int memfd = memfd_create("refcl-dma-buf", MFD_ALLOW_SEALING | MFD_CLOEXEC);
    int buf = -1;
    if (memfd >= 0 && ftruncate(memfd, SIZE) == 0 &&
        fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK) == 0) {
        struct udmabuf_create create = {.memfd = (__u32)memfd,
                                        .flags = UDMABUF_FLAGS_CLOEXEC,
                                        .offset = 0, .size = SIZE};
        buf = ioctl(dev, UDMABUF_CREATE, &create);
    }
    if (buf < 0)
        snprintf(why, room, "UDMABUF_CREATE: %s", strerror(errno));
    if (memfd >= 0)
        close(memfd);
    close(dev);
    return buf;
}

/* A dma_buf of SIZE bytes from the system dma-heap, or -1 with @p why. */
static int from_dma_heap(char *why, size_t room)
{
    int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);
    if (heap < 0) {
        snprintf(why, room, "/dev/dma_heap/system: %s", strerror(errno));
        return -1;
    }
    struct dma_heap_allocation_data alloc = {
        .len = SIZE, .fd_flags = O_RDWR | O_CLOEXEC, .heap_flags = 0};
    int buf = ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &alloc) == 0 ? (int)alloc.fd
                                                               : -1;
    if (buf < 0)
        snprintf(why, room, "DMA_HEAP_IOCTL_ALLOC: %s", strerror(errno));
    close(heap);
    return buf;
}

/* Brackets CPU access to the test's own mapping, as dma_buf users must. */
static void cpu_access(int fd, __u64 flags)
{
    struct dma_buf_sync sync = {.flags = flags | DMA_BUF_SYNC_RW};
    ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    char extensions[2048];
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof(extensions),
                             extensions, NULL),
             CL_SUCCESS);
    bool listed = strstr(extensions, "cl_arm_import_memory_dma_buf") != NULL;

    char why_udmabuf[160] = "", why_heap[160] = "";
    int fd = from_udmabuf(why_udmabuf, sizeof(why_udmabuf));
    if (fd < 0)
        fd = from_dma_heap(why_heap, sizeof(why_heap));
    if (fd < 0) {
        fprintf(stderr, "no dma_buf can be made here (%s; %s)\n", why_udmabuf,
                why_heap);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
        /* Only where no exporter exists must the extension be absent: one
         * may exist and refuse this process. */
        bool exporters = access("/dev/udmabuf", F_OK) == 0 ||
                         access("/dev/dma_heap/system", F_OK) == 0;
        if (listed && !exporters) {
            fprintf(stderr, "yet refcl lists cl_arm_import_memory_dma_buf\n");
            return 1;
        }
        return TEST_SKIP;
    }
    CHECK(listed);
    import_fn import = (import_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clImportMemoryARM");
    CHECK(import != NULL);
    if (!import)
        return 1;

    unsigned char *view = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
                               fd, 0);
    CHECK(view != MAP_FAILED);
    cpu_access(fd, DMA_BUF_SYNC_START);
    for (size_t i = 0; i < SIZE; i++)
        view[i] = (unsigned char)(i * 3);
    cpu_access(fd, DMA_BUF_SYNC_END);

    /* The whole allocation: written through the test's mapping, read
     * through the cl_mem. */
    cl_int err = 1;
    cl_mem whole = import(context, CL_MEM_READ_WRITE, dma_buf_type, &fd,
                          CL_IMPORT_MEMORY_WHOLE_ALLOCATION_ARM, &err);
    CHECK_EQ(err, CL_SUCCESS);
    size_t size = 0;
    CHECK_EQ(clGetMemObjectInfo(whole, CL_MEM_SIZE, sizeof(size), &size,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(size, SIZE);
    unsigned char *got = malloc(SIZE);
    CHECK_EQ(clEnqueueReadBuffer(queue, whole, CL_TRUE, 0, SIZE, got, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    int same = 1;
    for (size_t i = 0; i < SIZE; i++)
        same &= got[i] == (unsigned char)(i * 3);
    CHECK(same);
    CHECK(test_object_word(whole, 1) == test_object_word(context, 1));

    /* A part: written through the cl_mem, read through the mapping. */
    cl_mem part = import(context, 0, dma_buf_type, &fd, 4096, &err);
    CHECK_EQ(err, CL_SUCCESS);
    const unsigned char v[4] = {9, 8, 7, 6};
    CHECK_EQ(clEnqueueWriteBuffer(queue, part, CL_TRUE, 4092, 4, v, 0, NULL,
                                  NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueFillBuffer(queue, whole, v, 2, SIZE - 2, 2, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cpu_access(fd, DMA_BUF_SYNC_START);
    CHECK_EQ(view[4092], 9);
    CHECK_EQ(view[4095], 6);
    CHECK_EQ(view[SIZE - 2], 9);
    cpu_access(fd, DMA_BUF_SYNC_END);
    CHECK_EQ(clReleaseMemObject(part), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(whole), CL_SUCCESS);

    /* Errors: past the end, no bytes, not a dma_buf. */
    CHECK(import(context, 0, dma_buf_type, &fd, SIZE + 1, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_OPERATION);
    CHECK(import(context, 0, dma_buf_type, &fd, 0, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
    int not_dma_buf = memfd_create("refcl-plain", MFD_CLOEXEC);
    CHECK_EQ(ftruncate(not_dma_buf, SIZE), 0);
    CHECK(import(context, 0, dma_buf_type, &not_dma_buf, SIZE, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    int closed = -1;
    CHECK(import(context, 0, dma_buf_type, &closed, SIZE, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    close(not_dma_buf);

    /* The application still owns its descriptor and its mapping. */
    CHECK(fcntl(fd, F_GETFD) >= 0);
    CHECK_EQ(view[0], 0);
    munmap(view, SIZE);
    close(fd);
    free(got);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

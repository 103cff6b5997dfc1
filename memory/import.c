/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cl_arm_import_memory (revision 4, the seed of refcl), with
 * cl_arm_import_memory_host and, where the kernel can make dma_bufs,
 * cl_arm_import_memory_dma_buf: clImportMemoryARM turns memory the
 * application already has into a cl_mem, zero-copy.
 *
 * Host memory: the cl_mem's bytes are the application's, at any alignment.
 * Before importing, refcl reads the process's mappings (/proc/self/maps)
 * to learn that every page the range touches is mapped and readable,
 * without touching a byte, so a bad range is CL_INVALID_OPERATION and
 * never a fault. Pages it may read but not write make a read-only object.
 * Two imports that share a page must agree on their flags (the
 * extension's open question on unaligned imports sharing a page).
 *
 * dma_buf: the file descriptor is mapped (MAP_SHARED), so the cl_mem sees
 * what every other mapping of the buffer sees.
 *
 * docs/import-memory.md has refcl's answers to the seed's open issues.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "refcl/api.h"
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/memory.h"

/* "Valid <flags> are: CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY,
 * CL_MEM_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
 * CL_MEM_HOST_NO_ACCESS, CL_MEM_USE_HOST_PTR - this flag has no effect";
 * and CL_MEM_ALLOC_HOST_PTR, with which the extension selects "a buffer
 * suitable for frequent sharing" (every refcl buffer is: CPU and device are
 * one coherency domain). Never CL_MEM_COPY_HOST_PTR: an import "will never
 * fall back to copy operations". */
#define IMPORT_FLAGS                                         \
    (REFCL_MEM_ACCESS_FLAGS | REFCL_MEM_HOST_ACCESS_FLAGS |   \
     CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)

/* ---- the request ------------------------------------------------------ */

struct import_request {
    struct _cl_context *context;
    cl_mem_flags flags;
    cl_import_properties_arm type; /* CL_IMPORT_TYPE_ARM's value */
    void *memory;
    size_t size;
};

/* "Valid <properties> are: CL_IMPORT_TYPE_ARM"; its values
 * CL_IMPORT_TYPE_HOST_ARM ("the default") and CL_IMPORT_TYPE_DMA_BUF_ARM.
 * CL_INVALID_VALUE "when invalid properties are passed": another name, a
 * name given twice, another value. */
static cl_int properties_parse(const cl_import_properties_arm *properties,
                               cl_import_properties_arm *type)
{
    bool seen = false;
    *type = CL_IMPORT_TYPE_HOST_ARM;
    for (const cl_import_properties_arm *p = properties; p && p[0]; p += 2) {
        if (p[0] != CL_IMPORT_TYPE_ARM || seen)
            return REFCL_FAIL(CL_INVALID_VALUE, "property 0x%llX%s: \"when "
                              "invalid properties are passed\"",
                              (unsigned long long)p[0], seen ? " again" : "");
        if (p[1] != CL_IMPORT_TYPE_HOST_ARM &&
            p[1] != CL_IMPORT_TYPE_DMA_BUF_ARM)
            return REFCL_FAIL(CL_INVALID_VALUE, "CL_IMPORT_TYPE_ARM 0x%llX: "
                              "\"when invalid properties are passed\"",
                              (unsigned long long)p[1]);
        seen = true;
        *type = p[1];
    }
    return CL_SUCCESS;
}

/* ---- host pages ------------------------------------------------------- */

/* What the process's mappings say about a range of pages; PAGES_UNKNOWN
 * when they could not be read (no file descriptor or memory left), which
 * is no fault of the application's. */
enum pages { PAGES_UNKNOWN, PAGES_UNMAPPED, PAGES_READ_ONLY, PAGES_READ_WRITE };

/* Reads /proc/self/maps for the pages [@p lo, @p hi): all mapped and
 * readable, and writable or not. Touches none of them. */
static enum pages pages_state(uintptr_t lo, uintptr_t hi)
{
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps)
        return PAGES_UNKNOWN;
    enum pages state = PAGES_READ_WRITE;
    uintptr_t covered = lo;
    char line[512];
    /* Lines come in address order: "start-end perms offset dev inode
     * path"; a gap before the range is covered means unmapped pages. */
    while (covered < hi && fgets(line, sizeof(line), maps)) {
        unsigned long start, end;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3)
            continue;
        if (end <= covered)
            continue;
        if (start > covered || perms[0] != 'r')
            break;
        if (perms[1] != 'w')
            state = PAGES_READ_ONLY;
        covered = end;
    }
    fclose(maps);
    return covered >= hi ? state : PAGES_UNMAPPED;
}

/* The pages a host import of [memory, memory + size) touches: "When
 * alignment is less than a page size then whole pages touched by addresses
 * in the range ... will be mapped into the device". @return false when the
 * range runs past the end of the address space. */
static bool page_span(const void *memory, size_t size, uintptr_t *lo,
                      uintptr_t *hi)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t end;
    if (__builtin_add_overflow((uintptr_t)memory, size, &end) ||
        __builtin_add_overflow(end, page - 1, &end))
        return false;
    *lo = (uintptr_t)memory & ~(page - 1);
    *hi = end & ~(page - 1);
    return true;
}

/* ---- imports sharing pages --------------------------------------------- */

/* Every host import alive, linked through next_import. */
static pthread_mutex_t imports_lock = PTHREAD_MUTEX_INITIALIZER;
static struct _cl_mem *imports;

/* The flags two imports sharing a page must agree on: the kernel and host
 * access (CL_MEM_USE_HOST_PTR "has no effect", CL_MEM_ALLOC_HOST_PTR none
 * here), with the default spelled out. */
static cl_mem_flags access_of(cl_mem_flags flags)
{
    cl_mem_flags kernel = flags & REFCL_MEM_ACCESS_FLAGS;
    return (kernel ? kernel : CL_MEM_READ_WRITE) |
           (flags & REFCL_MEM_HOST_ACCESS_FLAGS);
}

/* An import of @p context with another access shares a page with
 * [@p lo, @p hi). Under imports_lock. */
static bool pages_conflict(const struct _cl_context *context,
                           cl_mem_flags flags, uintptr_t lo, uintptr_t hi)
{
    for (struct _cl_mem *m = imports; m; m = m->next_import) {
        uintptr_t m_lo = 0, m_hi = 0; /* its span fit when it came */
        page_span(refcl_mem_address(m), m->size, &m_lo, &m_hi);
        if (m->context == context && m_lo < hi && lo < m_hi &&
            access_of(m->flags) != access_of(flags))
            return true;
    }
    return false;
}

void refcl_import_forget(struct _cl_mem *mem)
{
    pthread_mutex_lock(&imports_lock);
    for (struct _cl_mem **p = &imports; *p; p = &(*p)->next_import)
        if (*p == mem) {
            *p = mem->next_import;
            break;
        }
    pthread_mutex_unlock(&imports_lock);
}

/* ---- the two kinds of import ------------------------------------------ */

/* Memory refcl may read but not write: a read-only memory object, whatever
 * the flags asked ("the more restrictive READ_ONLY will take precedence").
 * The host may still read it unless it asked for no access. */
static cl_mem_flags read_only_flags(cl_mem_flags flags)
{
    cl_mem_flags host = flags & CL_MEM_HOST_NO_ACCESS
                            ? CL_MEM_HOST_NO_ACCESS
                            : CL_MEM_HOST_READ_ONLY;
    return (flags & ~(cl_mem_flags)(REFCL_MEM_ACCESS_FLAGS |
                                    REFCL_MEM_HOST_ACCESS_FLAGS)) |
           CL_MEM_READ_ONLY | host;
}

/* CL_INVALID_BUFFER_SIZE for a size of 0, as for every buffer; host memory
 * has no allocation refcl could measure, so no
 * CL_IMPORT_MEMORY_WHOLE_ALLOCATION_ARM either. */
static struct _cl_mem *import_host(const struct import_request *req,
                                   cl_int *err)
{
    uintptr_t lo, hi;
    if (req->size == 0 || req->size == CL_IMPORT_MEMORY_WHOLE_ALLOCATION_ARM) {
        *err = REFCL_FAIL(CL_INVALID_BUFFER_SIZE, "size %zu: 0, or a whole "
                          "allocation of host memory", req->size);
        return NULL;
    }
    /* CL_INVALID_OPERATION "when host virtual pages in the range of
     * <memory> to <memory>+<size> are not mapped in the userspace address
     * space" (or not readable: refcl could not use them either). */
    enum pages state = page_span(req->memory, req->size, &lo, &hi)
                           ? pages_state(lo, hi)
                           : PAGES_UNMAPPED;
    if (state == PAGES_UNKNOWN) {
        /* CL_OUT_OF_HOST_MEMORY "if there is a failure to allocate
         * resources required by the OpenCL implementation on the host":
         * the descriptor that reads the mappings. */
        int why = errno;
        *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "cannot read "
                          "/proc/self/maps (errno %d): \"a failure to "
                          "allocate resources required by the OpenCL "
                          "implementation on the host\"", why);
        return NULL;
    }
    if (state == PAGES_UNMAPPED) {
        *err = REFCL_FAIL(CL_INVALID_OPERATION, "size %zu: \"when host "
                          "virtual pages in the range of <memory> to "
                          "<memory>+<size> are not mapped\" (or not "
                          "readable)", req->size);
        return NULL;
    }
    bool read_only = state == PAGES_READ_ONLY;
    cl_mem_flags flags = read_only ? read_only_flags(req->flags) : req->flags;
    struct _cl_mem *mem = NULL;
    pthread_mutex_lock(&imports_lock);
    /* "If the page is already mapped by another unaligned import, an error
     * will occur" when "two unaligned allocations are imported which share
     * a page, but request different memory flags". */
    if (pages_conflict(req->context, flags, lo, hi)) {
        *err = REFCL_FAIL(CL_INVALID_OPERATION, "\"two unaligned "
                          "allocations are imported which share a page, but "
                          "request different memory flags\"");
    } else {
        mem = refcl_mem_create(req->context, NULL, flags,
                               REFCL_STORAGE_IMPORT, req->memory, req->size);
        if (!mem)
            *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                              "no memory for the memory object");
    }
    if (mem) {
        mem->read_only_bytes = read_only;
        mem->next_import = imports;
        imports = mem;
        *err = CL_SUCCESS;
    }
    pthread_mutex_unlock(&imports_lock);
    return mem;
}

/* The size of the dma_buf @p fd, or 0 if @p fd is not one. */
static size_t dma_buf_size(int fd)
{
    struct statfs fs;
    if (fd < 0 || fstatfs(fd, &fs) != 0 || fs.f_type != DMA_BUF_MAGIC)
        return 0;
    off_t end = lseek(fd, 0, SEEK_END);
    return end > 0 ? (size_t)end : 0;
}

/* <memory> points at the file descriptor ("&dma_buf_handle" in the seed's
 * sample). Flags of the descriptor take precedence: a read-only one makes
 * a read-only object. */
static struct _cl_mem *import_dma_buf(const struct import_request *req,
                                      cl_int *err)
{
    int fd = *(const int *)req->memory;
    size_t whole = dma_buf_size(fd);
    size_t size = req->size == CL_IMPORT_MEMORY_WHOLE_ALLOCATION_ARM
                      ? whole
                      : req->size;
    /* Not a dma_buf: memory does not point at a valid handle. */
    if (!whole) {
        *err = REFCL_FAIL(CL_INVALID_VALUE, "fd %d: not a dma_buf", fd);
        return NULL;
    }
    if (size == 0) {
        *err = REFCL_FAIL(CL_INVALID_BUFFER_SIZE, "size 0");
        return NULL;
    }
    /* Past the end of the buffer, there are no pages to import. */
    if (size > whole) {
        *err = REFCL_FAIL(CL_INVALID_OPERATION, "size %zu: past the "
                          "dma_buf's %zu bytes", size, whole);
        return NULL;
    }
    int mode = fcntl(fd, F_GETFL);
    bool read_only = mode < 0 || (mode & O_ACCMODE) == O_RDONLY;
    void *bytes = mmap(NULL, size, PROT_READ | (read_only ? 0 : PROT_WRITE),
                       MAP_SHARED, fd, 0);
    if (bytes == MAP_FAILED) {
        int why = errno;
        *err = REFCL_FAIL(CL_INVALID_OPERATION, "the dma_buf cannot be "
                          "mapped (errno %d)", why);
        return NULL;
    }
    struct _cl_mem *mem = refcl_mem_create(
        req->context, NULL, read_only ? read_only_flags(req->flags) : req->flags,
        REFCL_STORAGE_DMA_BUF, bytes, size);
    if (!mem) {
        munmap(bytes, size);
        *err = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                          "no memory for the memory object");
        return NULL;
    }
    mem->allocation = bytes;
    mem->allocation_size = size;
    mem->read_only_bytes = read_only;
    *err = CL_SUCCESS;
    return mem;
}

cl_mem CL_API_CALL refcl_clImportMemoryARM(
    cl_context context, cl_mem_flags flags,
    const cl_import_properties_arm *properties, void *memory, size_t size,
    cl_int *errcode_ret)
{
    /* "CL_INVALID_CONTEXT on invalid context." */
    if (!refcl_object_valid(context, REFCL_CONTEXT))
        return refcl_errcode(
            NULL, refcl_invalid_handle(context, REFCL_CONTEXT), errcode_ret);
    struct import_request req = {context, flags, 0, memory, size};
    cl_int err = properties_parse(properties, &req.type);
    if (err == CL_SUCCESS && !refcl_mem_flags_valid(flags, IMPORT_FLAGS))
        err = REFCL_FAIL(CL_INVALID_VALUE, "flags 0x%llX: \"on invalid flag "
                         "input\"", (unsigned long long)flags);
    if (err == CL_SUCCESS && !memory)
        err = REFCL_FAIL(CL_INVALID_VALUE,
                         "memory NULL: \"if memory is NULL\"");
    if (err != CL_SUCCESS)
        return refcl_errcode(NULL, err, errcode_ret);
    struct _cl_mem *mem;
    if (req.type == CL_IMPORT_TYPE_HOST_ARM) {
        mem = import_host(&req, &err);
    } else if (refcl_import_dma_buf_supported()) {
        mem = import_dma_buf(&req, &err);
    } else {
        /* The extension: a type whose extension string is not listed is
         * CL_INVALID_OPERATION. */
        mem = NULL;
        err = REFCL_FAIL(CL_INVALID_OPERATION, "CL_IMPORT_TYPE_DMA_BUF_ARM: "
                         "cl_arm_import_memory_dma_buf is not supported");
    }
    return refcl_errcode(mem, err, errcode_ret);
}

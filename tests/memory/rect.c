/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory/rect: clEnqueueReadBufferRect, clEnqueueWriteBufferRect and
 * clEnqueueCopyBufferRect against a reference copy, 2D and 3D, with pitches
 * given and computed (0); every pitch rule, bounds and size_t overflows on
 * both sides, the host-access flags, the spec's copy-overlap check within
 * one buffer and the overlaps between a buffer and its sub-buffers, and
 * rectangles large enough to be cut over the compute units.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

#define ALIGN 128

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 13 + seed);
}

/* The spec's description, byte by byte: "Each byte of the region's width
 * is copied from the source offset to the destination offset. After
 * copying each width, the source and destination offsets are incremented
 * by their respective source and destination row pitches. After copying
 * each 2D rectangle, ... by their respective ... slice pitches." */
struct side {
    size_t origin[3];
    size_t row, slice; /* as given; 0 = computed */
};

static size_t row_of(const struct side *s, const size_t region[3])
{
    return s->row ? s->row : region[0];
}

static size_t slice_of(const struct side *s, const size_t region[3])
{
    return s->slice ? s->slice : region[1] * row_of(s, region);
}

static size_t start_of(const struct side *s, const size_t region[3])
{
    return s->origin[2] * slice_of(s, region) +
           s->origin[1] * row_of(s, region) + s->origin[0];
}

static void reference(unsigned char *dst, const struct side *d,
                      const unsigned char *src, const struct side *s,
                      const size_t region[3])
{
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                dst[start_of(d, region) + z * slice_of(d, region) +
                    y * row_of(d, region) + x] =
                    src[start_of(s, region) + z * slice_of(s, region) +
                        y * row_of(s, region) + x];
}

/* A few shapes: 2D, 3D, pitches given or computed, padded rows. */
static const struct shape {
    size_t region[3];
    struct side buf, host;
} shapes[] = {
    {{16, 4, 1}, {{0, 0, 0}, 0, 0}, {{0, 0, 0}, 0, 0}},
    {{7, 5, 1}, {{3, 2, 0}, 20, 0}, {{1, 1, 0}, 9, 0}},
    {{10, 3, 4}, {{2, 1, 1}, 16, 64}, {{0, 0, 0}, 0, 0}},
    {{5, 5, 3}, {{1, 1, 2}, 11, 77}, {{4, 0, 1}, 12, 60}},
    {{1, 1, 1}, {{255, 0, 0}, 0, 0}, {{0, 9, 0}, 1, 0}},
};

static void check_read_write(void)
{
    enum { SIZE = 1024 };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        const struct shape *sh = &shapes[i];
        unsigned char init[SIZE], host[SIZE], got[SIZE], want[SIZE];
        fill(init, SIZE, (unsigned)i);
        cl_mem mem = test_buffer(context, CL_MEM_COPY_HOST_PTR, SIZE, init);

        /* Read into a zeroed host buffer. */
        memset(host, 0, SIZE);
        memset(want, 0, SIZE);
        reference(want, &sh->host, init, &sh->buf, sh->region);
        cl_event event;
        CHECK_EQ(clEnqueueReadBufferRect(
                     queue, mem, CL_FALSE, sh->buf.origin, sh->host.origin,
                     sh->region, sh->buf.row, sh->buf.slice, sh->host.row,
                     sh->host.slice, host, 0, NULL, &event),
                 CL_SUCCESS);
        CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
        cl_command_type type = 0;
        CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type),
                                &type, NULL),
                 CL_SUCCESS);
        CHECK_EQ(type, CL_COMMAND_READ_BUFFER_RECT);
        CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
        if (memcmp(host, want, SIZE) != 0)
            fprintf(stderr, "read rect, shape %zu\n", i);
        CHECK(memcmp(host, want, SIZE) == 0);

        /* Write a pattern back over the buffer. */
        fill(host, SIZE, 100 + (unsigned)i);
        memcpy(want, init, SIZE);
        reference(want, &sh->buf, host, &sh->host, sh->region);
        CHECK_EQ(clEnqueueWriteBufferRect(
                     queue, mem, CL_TRUE, sh->buf.origin, sh->host.origin,
                     sh->region, sh->buf.row, sh->buf.slice, sh->host.row,
                     sh->host.slice, host, 0, NULL, NULL),
                 CL_SUCCESS);
        CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, SIZE, got, 0,
                                     NULL, NULL),
                 CL_SUCCESS);
        if (memcmp(got, want, SIZE) != 0)
            fprintf(stderr, "write rect, shape %zu\n", i);
        CHECK(memcmp(got, want, SIZE) == 0);
        CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    }
}

static cl_int read_rect(cl_mem mem, const size_t *bo, const size_t *ho,
                        const size_t *region, size_t br, size_t bs,
                        size_t hr, size_t hs, void *ptr)
{
    return clEnqueueReadBufferRect(queue, mem, CL_TRUE, bo, ho, region, br, bs,
                                   hr, hs, ptr, 0, NULL, NULL);
}

static cl_int write_rect(cl_mem mem, const size_t *bo, const size_t *ho,
                         const size_t *region, size_t br, size_t bs,
                         size_t hr, size_t hs, const void *ptr)
{
    return clEnqueueWriteBufferRect(queue, mem, CL_TRUE, bo, ho, region, br,
                                    bs, hr, hs, ptr, 0, NULL, NULL);
}

static void check_rules(void)
{
    unsigned char host[512];
    cl_mem mem = test_buffer(context, 0, 400, NULL);
    const size_t zero[3] = {0, 0, 0};
    const size_t r[3] = {10, 4, 2};
    /* In bounds exactly: pitch 10, slice 40, 2 slices = 80 bytes from
     * origin 320. */
    const size_t last[3] = {0, 0, 8};
    CHECK_EQ(read_rect(mem, last, zero, r, 0, 0, 0, 0, host), CL_SUCCESS);
    CHECK_EQ(write_rect(mem, last, zero, r, 0, 0, 0, 0, host), CL_SUCCESS);
    const size_t past[3] = {1, 0, 8};
    CHECK_EQ(read_rect(mem, past, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(write_rect(mem, past, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);

    /* CL_INVALID_VALUE "if buffer_origin, host_origin, or region is NULL",
     * "if any region array element is zero". */
    CHECK_EQ(read_rect(mem, NULL, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(read_rect(mem, zero, NULL, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(read_rect(mem, zero, zero, NULL, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    for (int d = 0; d < 3; d++) {
        size_t z[3] = {10, 4, 2};
        z[d] = 0;
        CHECK_EQ(read_rect(mem, zero, zero, z, 0, 0, 0, 0, host),
                 CL_INVALID_VALUE);
        CHECK_EQ(write_rect(mem, zero, zero, z, 0, 0, 0, 0, host),
                 CL_INVALID_VALUE);
    }
    /* Pitch rules, for the buffer's side and the host's. */
    const struct {
        size_t row, slice;
        cl_int expected;
    } pitches[] = {
        {9, 0, CL_INVALID_VALUE},   /* row < region[0] */
        {10, 39, CL_INVALID_VALUE}, /* slice < region[1] * row */
        {12, 50, CL_INVALID_VALUE}, /* slice not a multiple of row */
        {0, 45, CL_INVALID_VALUE},  /* ... of the computed row (10) */
        {12, 48, CL_SUCCESS},
        {0, 40, CL_SUCCESS},
        {11, 0, CL_SUCCESS},
    };
    for (size_t i = 0; i < sizeof(pitches) / sizeof(pitches[0]); i++) {
        CHECK_EQ(read_rect(mem, zero, zero, r, pitches[i].row,
                           pitches[i].slice, 0, 0, host),
                 pitches[i].expected);
        CHECK_EQ(write_rect(mem, zero, zero, r, 0, 0, pitches[i].row,
                            pitches[i].slice, host),
                 pitches[i].expected);
    }
    /* "if ptr is NULL". */
    CHECK_EQ(read_rect(mem, zero, zero, r, 0, 0, 0, 0, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(write_rect(mem, zero, zero, r, 0, 0, 0, 0, NULL),
             CL_INVALID_VALUE);

    /* Offsets and extents that overflow a size_t, on either side. */
    const size_t huge[3] = {SIZE_MAX, 0, 0};
    const size_t huge_z[3] = {0, 0, SIZE_MAX / 2};
    CHECK_EQ(read_rect(mem, huge, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(read_rect(mem, huge_z, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(read_rect(mem, zero, huge, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(write_rect(mem, zero, huge_z, r, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    const size_t wide[3] = {SIZE_MAX / 2, 3, 1};
    CHECK_EQ(read_rect(mem, zero, zero, wide, 0, 0, 0, 0, host),
             CL_INVALID_VALUE);
    CHECK_EQ(read_rect(mem, zero, zero, r, SIZE_MAX, 0, 0, 0, host),
             CL_INVALID_VALUE);
    /* The host's rectangle may not run off the end of the address space. */
    CHECK_EQ(read_rect(mem, zero, zero, r, 0, 0, 0, 0,
                       (void *)(uintptr_t)(UINTPTR_MAX - 40)),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);

    /* Host access. */
    cl_mem wo = test_buffer(context, CL_MEM_HOST_WRITE_ONLY, 400, NULL);
    cl_mem ro = test_buffer(context, CL_MEM_HOST_READ_ONLY, 400, NULL);
    cl_mem na = test_buffer(context, CL_MEM_HOST_NO_ACCESS, 400, NULL);
    CHECK_EQ(read_rect(wo, zero, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_OPERATION);
    CHECK_EQ(write_rect(wo, zero, zero, r, 0, 0, 0, 0, host), CL_SUCCESS);
    CHECK_EQ(read_rect(ro, zero, zero, r, 0, 0, 0, 0, host), CL_SUCCESS);
    CHECK_EQ(write_rect(ro, zero, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_OPERATION);
    CHECK_EQ(read_rect(na, zero, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_OPERATION);
    CHECK_EQ(write_rect(na, zero, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_OPERATION);
    /* A failed wait list: the error, and the buffer untouched. */
    cl_int err;
    cl_event failed = clCreateUserEvent(context, &err);
    CHECK_EQ(clSetUserEventStatus(failed, -1), CL_SUCCESS);
    memset(host, 0x44, sizeof(host));
    cl_mem plain = test_buffer(context, 0, 400, NULL);
    CHECK_EQ(clEnqueueWriteBufferRect(queue, plain, CL_TRUE, zero, zero, r, 0,
                                      0, 0, 0, host, 1, &failed, NULL),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(clEnqueueReadBufferRect(queue, plain, CL_TRUE, zero, zero, r, 0,
                                     0, 0, 0, host, 1, &failed, NULL),
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_EQ(host[0], 0x44);
    unsigned char check[400];
    CHECK_EQ(clEnqueueReadBuffer(queue, plain, CL_TRUE, 0, 400, check, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    int zeroes = 1;
    for (int i = 0; i < 400; i++)
        zeroes &= check[i] == 0;
    CHECK(zeroes);
    CHECK_EQ(clReleaseEvent(failed), CL_SUCCESS);
    cl_mem mems[] = {wo, ro, na, plain};
    for (int i = 0; i < 4; i++)
        CHECK_EQ(clReleaseMemObject(mems[i]), CL_SUCCESS);
}

/* ---- copy ------------------------------------------------------------- */

static cl_int copy_rect(cl_mem src, cl_mem dst, const size_t *so,
                        const size_t *dO, const size_t *region, size_t sr,
                        size_t ss, size_t dr, size_t ds)
{
    return clEnqueueCopyBufferRect(queue, src, dst, so, dO, region, sr, ss,
                                   dr, ds, 0, NULL, NULL);
}

static void check_copy(void)
{
    enum { SIZE = 2048 };
    unsigned char a_init[SIZE], b_init[SIZE], got[SIZE], want[SIZE];
    fill(a_init, SIZE, 1);
    fill(b_init, SIZE, 2);
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        const struct shape *sh = &shapes[i];
        cl_mem a = test_buffer(context, CL_MEM_COPY_HOST_PTR, SIZE, a_init);
        cl_mem b =
            test_buffer(context, CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS,
                        SIZE, b_init);
        memcpy(want, b_init, SIZE);
        reference(want, &sh->host, a_init, &sh->buf, sh->region);
        CHECK_EQ(copy_rect(a, b, sh->buf.origin, sh->host.origin, sh->region,
                           sh->buf.row, sh->buf.slice, sh->host.row,
                           sh->host.slice),
                 CL_SUCCESS);
        CHECK_EQ(clEnqueueCopyBuffer(queue, b, a, 0, 0, SIZE, 0, NULL, NULL),
                 CL_SUCCESS);
        CHECK_EQ(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, SIZE, got, 0, NULL,
                                     NULL),
                 CL_SUCCESS);
        if (memcmp(got, want, SIZE) != 0)
            fprintf(stderr, "copy rect, shape %zu\n", i);
        CHECK(memcmp(got, want, SIZE) == 0);
        CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
        CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    }

    cl_mem a = test_buffer(context, CL_MEM_COPY_HOST_PTR, SIZE, a_init);
    cl_mem b = test_buffer(context, 0, 256, NULL);
    const size_t zero[3] = {0, 0, 0};
    const size_t r[3] = {8, 4, 2};
    /* Bounds of either side. */
    const size_t end[3] = {0, 0, 3}; /* 3 * 32 + 64 = 160 <= 256 */
    CHECK_EQ(copy_rect(a, b, zero, end, r, 0, 0, 0, 0), CL_SUCCESS);
    const size_t past[3] = {0, 0, 7};
    CHECK_EQ(copy_rect(a, b, zero, past, r, 0, 0, 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(b, a, past, zero, r, 0, 0, 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, b, NULL, zero, r, 0, 0, 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, b, zero, NULL, r, 0, 0, 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, b, zero, zero, NULL, 0, 0, 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, b, zero, zero, r, 7, 0, 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, b, zero, zero, r, 0, 0, 8, 33), CL_INVALID_VALUE);
    /* Within one buffer: "src_row_pitch must equal dst_row_pitch", and
     * likewise the slice pitches (0 is the pitch it computes to). */
    const size_t far[3] = {0, 0, 40};
    CHECK_EQ(copy_rect(a, a, zero, far, r, 16, 0, 8, 0), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, a, zero, far, r, 8, 64, 8, 32), CL_INVALID_VALUE);
    CHECK_EQ(copy_rect(a, a, zero, far, r, 8, 32, 0, 0), CL_SUCCESS);

    /* The spec's overlap check: interleaved rows that never touch are
     * fine, touching ones overlap. */
    const size_t two_rows[3] = {4, 8, 1};
    const size_t left[3] = {0, 0, 0}, right[3] = {4, 0, 0};
    const size_t right_touch[3] = {3, 0, 0}, below[3] = {0, 1, 0};
    CHECK_EQ(copy_rect(a, a, left, right, two_rows, 16, 0, 16, 0),
             CL_SUCCESS);
    CHECK_EQ(copy_rect(a, a, left, right_touch, two_rows, 16, 0, 16, 0),
             CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy_rect(a, a, left, below, two_rows, 16, 0, 16, 0),
             CL_MEM_COPY_OVERLAP);
    /* Sub-buffers: with each other when they overlap at all; with their
     * buffer when the rectangles share a byte. */
    cl_mem s1 = test_sub_buffer(a, 0, 0, 4 * ALIGN),
           s2 = test_sub_buffer(a, 0, 2 * ALIGN, ALIGN);
    cl_mem s3 = test_sub_buffer(a, 0, 8 * ALIGN, 2 * ALIGN);
    const size_t tiny[3] = {1, 1, 1};
    CHECK_EQ(copy_rect(s1, s2, zero, zero, tiny, 0, 0, 0, 0),
             CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy_rect(s1, s3, zero, zero, tiny, 0, 0, 0, 0), CL_SUCCESS);
    /* s3 starts at a's byte 1024. Rows of 4 bytes: a's from 1028 every 16
     * bytes (1028, 1044, ..., 1140), s3's every 32 (1024, 1056, ...,
     * 1248): interleaved, no byte shared. From a's 1056 on, they meet. */
    const size_t a_origin[3] = {4, 64, 0};
    CHECK_EQ(copy_rect(a, s3, a_origin, zero, two_rows, 16, 0, 32, 0),
             CL_SUCCESS);
    const size_t a_touch[3] = {0, 66, 0}; /* a's rows 1056, 1072, ... */
    CHECK_EQ(copy_rect(a, s3, a_touch, zero, two_rows, 16, 0, 32, 0),
             CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy_rect(s3, a, zero, a_touch, two_rows, 32, 0, 16, 0),
             CL_MEM_COPY_OVERLAP);
    CHECK_EQ(copy_rect(s3, a, zero, zero, two_rows, 32, 0, 16, 0),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    cl_mem mems[] = {s1, s2, s3, a, b};
    for (int i = 0; i < 5; i++)
        CHECK_EQ(clReleaseMemObject(mems[i]), CL_SUCCESS);
}

/* Rectangles big enough to be cut into pieces of rows. */
static void check_large(void)
{
    const size_t w = 1000, h = 3000, pitch = 1024;
    const size_t size = pitch * h;
    unsigned char *host = malloc(size), *got = malloc(w * h);
    fill(host, size, 7);
    cl_mem mem = test_buffer(context, 0, w * h, NULL);
    const size_t zero[3] = {0, 0, 0}, region[3] = {w, h, 1};
    CHECK_EQ(clEnqueueWriteBufferRect(queue, mem, CL_TRUE, zero, zero, region,
                                      0, 0, pitch, 0, host, 0, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, w * h, got, 0, NULL,
                                 NULL),
             CL_SUCCESS);
    int ok = 1;
    for (size_t y = 0; y < h; y++)
        ok &= memcmp(got + y * w, host + y * pitch, w) == 0;
    CHECK(ok);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
    free(host);
    free(got);
}

static void check_bad_handles(void)
{
    unsigned char host[64];
    const size_t zero[3] = {0, 0, 0}, r[3] = {4, 1, 1};
    cl_mem mem = test_buffer(context, 0, 64, NULL);
    cl_mem released = test_buffer(context, 0, 64, NULL);
    CHECK_EQ(clReleaseMemObject(released), CL_SUCCESS);
    void *bad[6];
    int count = test_bad_handles(bad, released, queue, context);
    for (int i = 0; i < count; i++) {
        CHECK_EQ(read_rect(bad[i], zero, zero, r, 0, 0, 0, 0, host),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(write_rect(bad[i], zero, zero, r, 0, 0, 0, 0, host),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(copy_rect(bad[i], mem, zero, zero, r, 0, 0, 0, 0),
                 CL_INVALID_MEM_OBJECT);
        CHECK_EQ(copy_rect(mem, bad[i], zero, zero, r, 0, 0, 0, 0),
                 CL_INVALID_MEM_OBJECT);
    }
    count = test_bad_handles(bad, released, context, mem);
    for (int i = 0; i < count; i++) {
        CHECK_EQ(clEnqueueReadBufferRect(bad[i], mem, CL_TRUE, zero, zero, r,
                                         0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueWriteBufferRect(bad[i], mem, CL_TRUE, zero, zero, r,
                                          0, 0, 0, 0, host, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_EQ(clEnqueueCopyBufferRect(bad[i], mem, mem, zero, zero, r, 0, 0,
                                         0, 0, 0, NULL, NULL),
                 CL_INVALID_COMMAND_QUEUE);
    }
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem alien = clCreateBuffer(other, 0, 64, NULL, &err);
    CHECK_EQ(read_rect(alien, zero, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_CONTEXT);
    CHECK_EQ(write_rect(alien, zero, zero, r, 0, 0, 0, 0, host),
             CL_INVALID_CONTEXT);
    CHECK_EQ(copy_rect(alien, mem, zero, zero, r, 0, 0, 0, 0),
             CL_INVALID_CONTEXT);
    CHECK_EQ(copy_rect(mem, alien, zero, zero, r, 0, 0, 0, 0),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clReleaseMemObject(alien), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(mem), CL_SUCCESS);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    check_read_write();
    check_rules();
    check_copy();
    check_large();
    check_bad_handles();
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

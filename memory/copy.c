/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The byte movers behind every memory command: copies, pattern fills and
 * rectangle copies. Large ones are cut into independent pieces that
 * refcl_device_run spreads over the device's compute units; small ones run
 * inline on the queue's worker, where waking other units would cost more
 * than the bytes.
 */
#include <string.h>

#include "command.h"
#include "rect.h"
#include "refcl/device.h"
#include "refcl/workers.h"

/* Bytes below which a piece is not worth a compute unit of its own. */
#define PIECE_MIN ((size_t)1 << 20)
/* Pieces per compute unit: a few, so that a unit slowed down by another
 * process does not hold the whole command back. */
#define PIECES_PER_UNIT 4u
/* Pieces start at multiples of this: whole pages, and a multiple of every
 * fill pattern size. */
#define PIECE_ALIGN ((size_t)4096)

/* How many pieces @p size bytes are cut into on @p device, and how big
 * each is (the last may be smaller). */
static size_t pieces_for(const struct _cl_device_id *device, size_t size,
                         size_t *piece)
{
    size_t count = size / PIECE_MIN;
    size_t most = (size_t)device->compute_units * PIECES_PER_UNIT;
    if (count > most)
        count = most;
    if (count < 2) {
        *piece = size;
        return 1;
    }
    size_t each = (size + count - 1) / count;
    *piece = (each + PIECE_ALIGN - 1) / PIECE_ALIGN * PIECE_ALIGN;
    return (size + *piece - 1) / *piece;
}

/* ---- copies ----------------------------------------------------------- */

struct copy_job {
    char *dst;
    const char *src;
    size_t size, piece;
};

static void copy_piece(void *arg, size_t index)
{
    const struct copy_job *job = arg;
    size_t start = index * job->piece;
    size_t n = job->size - start < job->piece ? job->size - start : job->piece;
    memcpy(job->dst + start, job->src + start, n);
}

void refcl_copy_bytes(struct _cl_device_id *device, void *dst, const void *src,
                      size_t size)
{
    /* A USE_HOST_PTR buffer read into its own host_ptr: nothing to move. */
    if (dst == src || size == 0)
        return;
    if (refcl_ranges_overlap((uintptr_t)dst, size, (uintptr_t)src, size)) {
        memmove(dst, src, size);
        return;
    }
    struct copy_job job = {dst, src, size, 0};
    size_t count = pieces_for(device, size, &job.piece);
    if (count == 1)
        memcpy(dst, src, size);
    else
        refcl_device_run(device, count, copy_piece, &job);
}

/* ---- fills ------------------------------------------------------------ */

/* The pattern repeated over this many bytes, then copied block by block. */
#define FILL_BLOCK ((size_t)4096)

struct fill_job {
    char *dst;
    size_t size, piece;
    size_t pattern_size;
    unsigned char block[FILL_BLOCK]; /* the pattern, repeated */
};

/* Fills [@p dst, @p dst + @p n) from @p job's block; @p dst is a multiple
 * of the pattern size past the fill's start. */
static void fill_range(const struct fill_job *job, char *dst, size_t n)
{
    if (job->pattern_size == 1) {
        memset(dst, job->block[0], n);
        return;
    }
    while (n >= FILL_BLOCK) {
        memcpy(dst, job->block, FILL_BLOCK);
        dst += FILL_BLOCK;
        n -= FILL_BLOCK;
    }
    memcpy(dst, job->block, n);
}

static void fill_piece(void *arg, size_t index)
{
    const struct fill_job *job = arg;
    size_t start = index * job->piece;
    size_t n = job->size - start < job->piece ? job->size - start : job->piece;
    fill_range(job, job->dst + start, n);
}

void refcl_fill_bytes(struct _cl_device_id *device, void *dst,
                      const void *pattern, size_t pattern_size, size_t size)
{
    struct fill_job job = {.dst = dst, .size = size,
                           .pattern_size = pattern_size};
    /* FILL_BLOCK is a multiple of every pattern size: the block ends on a
     * whole pattern, so blocks follow each other seamlessly. */
    memcpy(job.block, pattern, pattern_size);
    for (size_t done = pattern_size; done < FILL_BLOCK; done *= 2)
        memcpy(job.block + done, job.block, done);
    size_t count = pieces_for(device, size, &job.piece);
    if (count == 1)
        fill_range(&job, dst, size);
    else
        refcl_device_run(device, count, fill_piece, &job);
}

/* ---- rectangles ------------------------------------------------------- */

struct rect_job {
    const struct refcl_rect_copy *copy;
    size_t rows;          /* region[1] * region[2] */
    size_t rows_per_piece;
};

/* Copies rows [@p first, @p first + @p count) of @p copy, counted across
 * slices. */
static void rect_rows(const struct refcl_rect_copy *copy, size_t first,
                      size_t count)
{
    size_t height = copy->region[1];
    for (size_t r = first; r < first + count; r++) {
        size_t y = r % height, z = r / height;
        char *dst = copy->dst + z * copy->dst_slice + y * copy->dst_row;
        const char *src = copy->src + z * copy->src_slice + y * copy->src_row;
        if (dst != src)
            memmove(dst, src, copy->region[0]);
    }
}

static void rect_piece(void *arg, size_t index)
{
    const struct rect_job *job = arg;
    size_t first = index * job->rows_per_piece;
    size_t left = job->rows - first;
    rect_rows(job->copy, first,
              left < job->rows_per_piece ? left : job->rows_per_piece);
}

void refcl_copy_rect(struct _cl_device_id *device,
                     const struct refcl_rect_copy *copy)
{
    struct rect_job job = {copy, copy->region[1] * copy->region[2], 0};
    size_t width = copy->region[0];
    /* Rows stay whole: cut the bytes, then round to rows. */
    size_t piece;
    size_t count = pieces_for(device, job.rows * width, &piece);
    if (count == 1) {
        rect_rows(copy, 0, job.rows);
        return;
    }
    job.rows_per_piece = (piece + width - 1) / width;
    count = (job.rows + job.rows_per_piece - 1) / job.rows_per_piece;
    refcl_device_run(device, count, rect_piece, &job);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Images: a 5x5 blur of a 4096 x 4096 RGBA UNORM_INT8 image read through a
 * sampler (nearest, clamp-to-edge) into a second image, the same blur over
 * buffers of uchar4 (the reference: what an image costs over plain
 * loads), a bilinear resampling of the image to 3000 x 3000, and map and
 * copy of the 64 MiB image (next to memcpy.64m).
 */
#include <stdbool.h>
#include <string.h>

#include "bench.h"

#define SIDE 4096
#define RESAMPLED 3000
#define IMAGE_BYTES ((size_t)SIDE * SIDE * 4)

static const char image_source[] =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "constant float w[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};\n"
    "kernel void blur(read_only image2d_t src, write_only image2d_t dst)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float4 sum = 0.0f;\n"
    "    for (int j = -2; j <= 2; j++)\n"
    "        for (int i = -2; i <= 2; i++)\n"
    "            sum += w[i + 2] * w[j + 2] *\n"
    "                   read_imagef(src, edge, (int2)(x + i, y + j));\n"
    "    write_imagef(dst, (int2)(x, y), sum);\n"
    "}\n"
    "kernel void resample(read_only image2d_t src, write_only image2d_t dst)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float2 at = ((float2)(x, y) + 0.5f) / (float2)(get_image_width(dst),\n"
    "                                           get_image_height(dst));\n"
    "    write_imagef(dst, (int2)(x, y), read_imagef(src, bilinear, at));\n"
    "}\n"
    "kernel void blur_buffer(global const uchar4 *src, global uchar4 *dst,\n"
    "                        int width, int height)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float4 sum = 0.0f;\n"
    "    for (int j = -2; j <= 2; j++)\n"
    "        for (int i = -2; i <= 2; i++) {\n"
    "            int u = clamp(x + i, 0, width - 1);\n"
    "            int v = clamp(y + j, 0, height - 1);\n"
    "            sum += w[i + 2] * w[j + 2] *\n"
    "                   convert_float4(src[v * width + u]) / 255.0f;\n"
    "        }\n"
    "    dst[y * width + x] = convert_uchar4_sat_rte(sum * 255.0f);\n"
    "}\n";

static struct {
    struct bench_kernel run; /* the kernel: none for the copy and map */
    cl_mem a, b;
    size_t global[2];
} im;

static cl_mem make_image(size_t side, cl_int *err)
{
    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = side;
    return clCreateImage(im.run.context, CL_MEM_READ_WRITE, &format, &desc, NULL,
                         err);
}

/* The context, the queue, kernel @p name of image_source (none where
 * NULL) and image a, filled once so that the timed runs touch memory that
 * is there. */
static cl_int base_setup(const struct bench *b, const char *name)
{
    cl_int err = bench_kernel_build(b, name ? image_source : NULL, "", name,
                                    &im.run);
    if (err == CL_SUCCESS)
        im.a = make_image(SIDE, &err);
    const float grey[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    const size_t origin[3] = {0, 0, 0}, region[3] = {SIDE, SIDE, 1};
    if (err == CL_SUCCESS)
        err = clEnqueueFillImage(im.run.queue, im.a, grey, origin, region, 0, NULL,
                                 NULL);
    return err == CL_SUCCESS ? clFinish(im.run.queue) : err;
}

/* Kernel @p name over a destination of @p side texels a side (an image,
 * or with @p buffers two buffers of the image's bytes). */
static cl_int kernel_setup(const struct bench *b, const char *name,
                           size_t side, bool buffers)
{
    cl_int err = base_setup(b, name);
    if (err == CL_SUCCESS && buffers) {
        cl_mem src = clCreateBuffer(im.run.context, CL_MEM_READ_WRITE,
                                    IMAGE_BYTES, NULL, &err);
        const cl_uchar4 grey = {{64, 128, 192, 255}};
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(im.run.queue, src, &grey, sizeof(grey), 0,
                                      IMAGE_BYTES, 0, NULL, NULL);
        clReleaseMemObject(im.a);
        im.a = src;
    }
    if (err == CL_SUCCESS)
        im.b = buffers ? clCreateBuffer(im.run.context, CL_MEM_READ_WRITE,
                                        IMAGE_BYTES, NULL, &err)
                       : make_image(side, &err);
    const cl_int width = SIDE;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(im.run.kernel, 0, sizeof(cl_mem), &im.a);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(im.run.kernel, 1, sizeof(cl_mem), &im.b);
    if (err == CL_SUCCESS && buffers)
        err = clSetKernelArg(im.run.kernel, 2, sizeof(width), &width);
    if (err == CL_SUCCESS && buffers)
        err = clSetKernelArg(im.run.kernel, 3, sizeof(width), &width);
    im.global[0] = im.global[1] = side;
    return err == CL_SUCCESS ? clFinish(im.run.queue) : err;
}

static cl_int blur_setup(const struct bench *b, int units)
{
    (void)units;
    return kernel_setup(b, "blur", SIDE, false);
}

static cl_int blur_buffer_setup(const struct bench *b, int units)
{
    (void)units;
    return kernel_setup(b, "blur_buffer", SIDE, true);
}

static cl_int resample_setup(const struct bench *b, int units)
{
    (void)units;
    return kernel_setup(b, "resample", RESAMPLED, false);
}

/* One run of the kernel, completed; the ICD picks the local size. */
static cl_int kernel_loop(const struct bench *b, long n)
{
    (void)b;
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueNDRangeKernel(im.run.queue, im.run.kernel, 2, NULL,
                                            im.global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(im.run.queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int copy_setup(const struct bench *b, int units)
{
    (void)units;
    cl_int err = base_setup(b, NULL);
    if (err == CL_SUCCESS)
        im.b = make_image(SIDE, &err);
    return err;
}

static cl_int copy_loop(const struct bench *b, long n)
{
    (void)b;
    const size_t origin[3] = {0, 0, 0}, region[3] = {SIDE, SIDE, 1};
    for (long i = 0; i < n; i++) {
        cl_int err = clEnqueueCopyImage(im.run.queue, im.a, im.b, origin, origin,
                                        region, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(im.run.queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int map_setup(const struct bench *b, int units)
{
    (void)units;
    return base_setup(b, NULL);
}

/* A blocking map of the whole image for writing, and its unmap. */
static cl_int map_loop(const struct bench *b, long n)
{
    (void)b;
    const size_t origin[3] = {0, 0, 0}, region[3] = {SIDE, SIDE, 1};
    for (long i = 0; i < n; i++) {
        size_t row;
        cl_int err;
        void *p = clEnqueueMapImage(im.run.queue, im.a, CL_TRUE, CL_MAP_WRITE,
                                    origin, region, &row, NULL, 0, NULL, NULL,
                                    &err);
        if (err == CL_SUCCESS)
            err = clEnqueueUnmapMemObject(im.run.queue, im.a, p, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(im.run.queue);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static void images_teardown(void)
{
    if (im.a)
        clReleaseMemObject(im.a);
    if (im.b)
        clReleaseMemObject(im.b);
    bench_kernel_release(&im.run);
    memset(&im, 0, sizeof(im));
}

const struct work bench_image_blur = {blur_setup, kernel_loop,
                                      images_teardown, 0, 0};
const struct work bench_buffer_blur = {blur_buffer_setup, kernel_loop,
                                       images_teardown, 0, 0};
const struct work bench_image_resample = {resample_setup, kernel_loop,
                                          images_teardown, 0, 0};
const struct work bench_copy_image_64m = {copy_setup, copy_loop,
                                          images_teardown, 0, 0};
const struct work bench_map_unmap_image_64m = {map_setup, map_loop,
                                               images_teardown, 0, 0};

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image/kernel: images and samplers as arguments of compiled kernels.
 * Texels read and written by kernels are compared with the host's
 * rendering of the spec (the conversion rules, the border colour, the
 * linear filter's weights); clSetKernelArg refuses the spec's mismatches;
 * clGetKernelArgInfo describes image arguments.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../compiler/exec.h"

static const char source[] =
    "constant sampler_t clamp_nearest = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
    "kernel void copy_ui(read_only image2d_t src, write_only image2d_t dst)\n"
    "{\n"
    "    int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imageui(dst, at, read_imageui(src, at) + (uint4)(1));\n"
    "}\n"
    "kernel void sample(read_only image2d_t src, sampler_t s,\n"
    "                   global float2 *coords, global float4 *out)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = read_imagef(src, s, coords[i]);\n"
    "}\n"
    "kernel void border(read_only image2d_t src, global float4 *out)\n"
    "{\n"
    "    out[0] = read_imagef(src, clamp_nearest, (int2)(-1, 0));\n"
    "    out[1] = read_imagef(src, clamp_nearest, (int2)(0, 0));\n"
    "}\n"
    "kernel void sizes(read_only image3d_t img, global int *out)\n"
    "{\n"
    "    out[0] = get_image_width(img);\n"
    "    out[1] = get_image_height(img);\n"
    "    out[2] = get_image_depth(img);\n"
    "    out[3] = get_image_channel_order(img);\n"
    "    out[4] = get_image_channel_data_type(img);\n"
    "    out[5] = CLK_UNORM_INT_101010_2;\n"
    "    out[6] = __IMAGE_SUPPORT__;\n"
    "}\n"
    "typedef image2d_t picture;\n"
    "kernel void named(read_only picture src, global uint4 *out)\n"
    "{\n"
    "    out[0] = read_imageui(src, (int2)(1, 0));\n"
    "}\n"
    "kernel void store_f(write_only image1d_buffer_t dst)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    write_imagef(dst, i, (float4)(i * 0.25f - 0.5f, 0.5f, 2.0f, 1.0f));\n"
    "}\n";

static cl_mem image2d(cl_mem_flags flags, cl_channel_order order,
                      cl_channel_type type, size_t w, size_t h, void *data)
{
    cl_image_format format = {order, type};
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = w;
    desc.image_height = h;
    cl_int err = 1;
    cl_mem image = clCreateImage(context, flags | (data ? CL_MEM_COPY_HOST_PTR
                                                        : 0),
                                 &format, &desc, data, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return image;
}

static cl_int run(cl_kernel k, cl_uint dims, const size_t *global)
{
    cl_int status = clEnqueueNDRangeKernel(queue, k, dims, NULL, global, NULL,
                                           0, NULL, NULL);
    return status == CL_SUCCESS ? clFinish(queue) : status;
}

static void set(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    CHECK_EQ(clSetKernelArg(k, index, size, value), CL_SUCCESS);
}

/* Samplerless reads and writes of an integer image: every texel plus 1,
 * saturated to the channel (255 + 1 stays 255). */
static void check_copy(cl_program program)
{
    enum { W = 7, H = 5 };
    uint8_t in[W * H * 4], out[W * H * 4];
    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 37);
    cl_mem src = image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_UNSIGNED_INT8, W, H,
                         in);
    cl_mem dst = image2d(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNSIGNED_INT8, W, H,
                         NULL);
    cl_kernel k = exec_kernel(program, "copy_ui");
    set(k, 0, sizeof(src), &src);
    set(k, 1, sizeof(dst), &dst);
    const size_t global[2] = {W, H};
    CHECK_EQ(run(k, 2, global), CL_SUCCESS);
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    CHECK_EQ(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0, out,
                                0, NULL, NULL),
             CL_SUCCESS);
    for (size_t i = 0; i < sizeof(in); i++)
        CHECK_EQ(out[i], in[i] == 255 ? 255 : in[i] + 1);
    /* CL_INVALID_ARG_VALUE for a write-only image where the kernel reads,
     * "if the argument is an image declared with the read_only qualifier
     * and arg_value refers to an image object created with cl_mem_flags of
     * CL_MEM_WRITE_ONLY"; CL_INVALID_MEM_OBJECT for a buffer. */
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(dst), &dst), CL_INVALID_ARG_VALUE);
    cl_mem buffer = exec_buffer(16, NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(buffer), &buffer),
             CL_INVALID_MEM_OBJECT);
    cl_kernel_arg_access_qualifier access = 0;
    CHECK_EQ(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                sizeof(access), &access, NULL),
             CL_SUCCESS);
    CHECK_EQ(access, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    cl_kernel_arg_address_qualifier address = 0;
    CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                sizeof(address), &address, NULL),
             CL_SUCCESS);
    CHECK_EQ(address, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    char type[32] = "";
    CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof(type),
                                type, NULL),
             CL_SUCCESS);
    CHECK_STR(type, "image2d_t");
    /* An argument whose type is a typedef of an image takes one too. */
    cl_kernel named = exec_kernel(program, "named");
    set(named, 0, sizeof(src), &src);
    set(named, 1, sizeof(buffer), &buffer);
    const size_t one = 1;
    CHECK_EQ(run(named, 1, &one), CL_SUCCESS);
    cl_uint texel[4];
    exec_read(buffer, sizeof(texel), texel);
    for (int c = 0; c < 4; c++)
        CHECK_EQ(texel[c], in[4 + c]);
    CHECK_EQ(clReleaseKernel(named), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(dst), CL_SUCCESS);
}

/* UNORM_INT8 to float: "(float)c / 255.0f", within the spec's 1.5 ulp. */
static int unorm_close(float got, unsigned c)
{
    float want = (float)c / 255.0f;
    return fabsf(got - want) <= 2.0f * (nextafterf(want, 2.0f) - want);
}

/* Through a sampler argument: nearest with normalized coordinates, and
 * linear, whose result is the spec's weighted sum of the four texels
 * (a = frac(u - 0.5), b = frac(v - 0.5)). */
static void check_sampling(cl_program program)
{
    uint8_t texels[2 * 2 * 4] = {0, 0, 0, 255,   200, 0, 0, 255,
                                 100, 0, 0, 255, 40, 0, 0, 255};
    cl_mem src = image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, 2, 2,
                         texels);
    cl_int err = 1;
    cl_sampler nearest = clCreateSampler(context, CL_TRUE,
                                         CL_ADDRESS_CLAMP_TO_EDGE,
                                         CL_FILTER_NEAREST, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_sampler linear = clCreateSampler(context, CL_FALSE,
                                        CL_ADDRESS_CLAMP_TO_EDGE,
                                        CL_FILTER_LINEAR, &err);
    CHECK_EQ(err, CL_SUCCESS);
    const float coords[4] = {0.75f, 0.25f, 1.25f, 0.75f};
    cl_mem where = exec_buffer(sizeof(coords), coords);
    cl_mem out = exec_buffer(2 * 4 * sizeof(float), NULL);
    cl_kernel k = exec_kernel(program, "sample");
    set(k, 0, sizeof(src), &src);
    set(k, 1, sizeof(nearest), &nearest);
    set(k, 2, sizeof(where), &where);
    set(k, 3, sizeof(out), &out);
    const size_t two = 2;
    CHECK_EQ(run(k, 1, &two), CL_SUCCESS);
    float got[8];
    exec_read(out, sizeof(got), got);
    /* (0.75, 0.25) normalized: texel (1, 0), red 200. */
    CHECK(unorm_close(got[0], 200));
    CHECK(unorm_close(got[3], 255));
    /* Linear at (1.25, 0.75) unnormalized: i0 = 0, a = 0.75, j0 = 0,
     * b = 0.25 (clamp-to-edge keeps i1 = 1, j1 = 1). */
    set(k, 1, sizeof(linear), &linear);
    CHECK_EQ(run(k, 1, &two), CL_SUCCESS);
    exec_read(out, sizeof(got), got);
    double a = 0.75, b = 0.25;
    double red = ((1 - a) * (1 - b) * 0 + a * (1 - b) * 200 +
                  (1 - a) * b * 100 + a * b * 40) / 255.0;
    CHECK(fabs(got[4] - red) < 1e-3);
    /* CL_INVALID_SAMPLER "for an argument declared to be of type sampler_t
     * when the specified arg_value is not a valid sampler object". */
    CHECK_EQ(clSetKernelArg(k, 1, sizeof(src), &src), CL_INVALID_SAMPLER);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseSampler(nearest), CL_SUCCESS);
    CHECK_EQ(clReleaseSampler(linear), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(where), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
}

/* A program-scope sampler with CLK_ADDRESS_CLAMP: outside the image, the
 * border colour, "(0.0f, 0.0f, 0.0f, 1.0f)" for CL_R, which has no
 * alpha. */
static void check_border(cl_program program)
{
    float texel = 0.625f;
    cl_mem src = image2d(CL_MEM_READ_ONLY, CL_R, CL_FLOAT, 1, 1, &texel);
    cl_mem out = exec_buffer(8 * sizeof(float), NULL);
    cl_kernel k = exec_kernel(program, "border");
    set(k, 0, sizeof(src), &src);
    set(k, 1, sizeof(out), &out);
    const size_t one = 1;
    CHECK_EQ(run(k, 1, &one), CL_SUCCESS);
    float got[8];
    exec_read(out, sizeof(got), got);
    const float want[8] = {0, 0, 0, 1, 0.625f, 0, 0, 1};
    for (int i = 0; i < 8; i++)
        CHECK_EQ(got[i], want[i]);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(src), CL_SUCCESS);
}

/* The get_image_* queries of a 3D image; a 2D image for an image3d_t
 * argument is refused. */
static void check_queries(cl_program program)
{
    cl_image_format format = {CL_RG, CL_HALF_FLOAT};
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = 5;
    desc.image_height = 3;
    desc.image_depth = 2;
    cl_int err = 1;
    cl_mem img = clCreateImage(context, CL_MEM_READ_ONLY, &format, &desc, NULL,
                               &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem out = exec_buffer(7 * sizeof(cl_int), NULL);
    cl_kernel k = exec_kernel(program, "sizes");
    set(k, 0, sizeof(img), &img);
    set(k, 1, sizeof(out), &out);
    const size_t one = 1;
    CHECK_EQ(run(k, 1, &one), CL_SUCCESS);
    cl_int got[7];
    exec_read(out, sizeof(got), got);
    /* "The values returned by get_image_channel_data_type and
     * get_image_channel_order ... with the CLK_ prefixes correspond to the
     * CL_ prefixes" (CLK_UNORM_INT_101010_2 among them); "__IMAGE_SUPPORT__
     * ... is set to 1 if images are supported". */
    const cl_int want[7] = {5, 3, 2, CL_RG, CL_HALF_FLOAT,
                            CL_UNORM_INT_101010_2, 1};
    for (int i = 0; i < 7; i++)
        CHECK_EQ(got[i], want[i]);
    cl_mem flat = image2d(CL_MEM_READ_ONLY, CL_RG, CL_HALF_FLOAT, 2, 2, NULL);
    CHECK_EQ(clSetKernelArg(k, 0, sizeof(flat), &flat), CL_INVALID_ARG_VALUE);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(flat), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(img), CL_SUCCESS);
}

/* write_imagef into a 1D buffer image of UNORM_INT8 RGBA: the buffer holds
 * convert_uchar_sat_rte(f * 255) of each channel. */
static void check_buffer_image(cl_program program)
{
    enum { N = 9 };
    cl_mem buffer = exec_buffer(N * 4, NULL);
    cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    desc.image_width = N;
    desc.buffer = buffer;
    cl_int err = 1;
    cl_mem img = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc,
                               NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_kernel k = exec_kernel(program, "store_f");
    set(k, 0, sizeof(img), &img);
    const size_t n = N;
    CHECK_EQ(run(k, 1, &n), CL_SUCCESS);
    uint8_t got[N * 4];
    exec_read(buffer, sizeof(got), got);
    for (int i = 0; i < N; i++) {
        double r = nearbyint((i * 0.25 - 0.5) * 255.0);
        CHECK_EQ(got[i * 4], r < 0 ? 0 : r > 255 ? 255 : (uint8_t)r);
        CHECK_EQ(got[i * 4 + 1], 128); /* 127.5: to even */
        CHECK_EQ(got[i * 4 + 2], 255);
        CHECK_EQ(got[i * 4 + 3], 255);
    }
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(img), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
}

/* OpenCL C 3.0: a read_write image (__opencl_c_read_write_images) read
 * and written by the same work-item, and a write into a 3D image
 * (__opencl_c_3d_image_writes). */
static const char source30[] =
    "kernel void invert(read_write image2d_t img)\n"
    "{\n"
    "    int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(img, at, 1.0f - read_imagef(img, at));\n"
    "}\n"
    "kernel void depth(write_only image3d_t img)\n"
    "{\n"
    "    int4 at = (int4)(get_global_id(0), get_global_id(1),\n"
    "                     get_global_id(2), 0);\n"
    "    write_imagei(img, at, (int4)(at.z * 100 + at.y * 10 + at.x));\n"
    "}\n";

static void check_opencl_c_30(void)
{
    cl_program program = exec_build(source30, "-cl-std=CL3.0");
    if (!program)
        return;
    float texels[4] = {0.25f, 0.5f, 1.0f, 0.0f};
    cl_mem img = image2d(CL_MEM_READ_WRITE, CL_R, CL_FLOAT, 2, 2, texels);
    cl_kernel k = exec_kernel(program, "invert");
    set(k, 0, sizeof(img), &img);
    const size_t two[2] = {2, 2};
    CHECK_EQ(run(k, 2, two), CL_SUCCESS);
    const size_t origin[3] = {0, 0, 0}, region[3] = {2, 2, 1};
    float got[4];
    CHECK_EQ(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0,
                                got, 0, NULL, NULL),
             CL_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(got[i], 1.0f - texels[i]);
    cl_kernel_arg_access_qualifier access = 0;
    CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                sizeof(access), &access, NULL),
             CL_SUCCESS);
    CHECK_EQ(access, CL_KERNEL_ARG_ACCESS_READ_WRITE);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(img), CL_SUCCESS);

    cl_image_format format = {CL_R, CL_SIGNED_INT16};
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = 3;
    desc.image_height = 2;
    desc.image_depth = 2;
    cl_int err = 1;
    cl_mem cube = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc,
                                NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    k = exec_kernel(program, "depth");
    set(k, 0, sizeof(cube), &cube);
    const size_t all[3] = {3, 2, 2}, box[3] = {3, 2, 2};
    CHECK_EQ(run(k, 3, all), CL_SUCCESS);
    int16_t values[12];
    CHECK_EQ(clEnqueueReadImage(queue, cube, CL_TRUE, origin, box, 0, 0,
                                values, 0, NULL, NULL),
             CL_SUCCESS);
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++)
                CHECK_EQ(values[(z * 2 + y) * 3 + x], z * 100 + y * 10 + x);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(cube), CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

int main(void)
{
    exec_setup();
    cl_program program = exec_build(source, "-cl-std=CL1.2");
    if (!program)
        return 1;
    check_copy(program);
    check_sampling(program);
    check_border(program);
    check_queries(program);
    check_buffer_image(program);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    check_opencl_c_30();
    exec_teardown();
    return TEST_RESULT();
}

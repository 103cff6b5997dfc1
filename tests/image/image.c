/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image/image: images and samplers on the host. The format lists hold the
 * spec's minimum formats and nothing that breaks its rules; creation
 * returns the spec's error for each kind of bad argument; clGetImageInfo
 * answers what the spec says for each image type; texels written, read,
 * copied, filled and mapped land where the pitches say, and a fill colour
 * is converted by the spec's conversion rules, computed here on the host.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const cl_mem_object_type all_types[] = {
    CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE3D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY,
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- formats ------------------------------------------------------------ */

static cl_uint formats_of(cl_mem_flags flags, cl_mem_object_type type,
                          cl_image_format *out, cl_uint max)
{
    cl_uint count = 0;
    CHECK_EQ(clGetSupportedImageFormats(context, flags, type, max, out,
                                        &count),
             CL_SUCCESS);
    return count;
}

static bool listed(const cl_image_format *list, cl_uint count,
                   cl_channel_order order, cl_channel_type type)
{
    for (cl_uint i = 0; i < count; i++)
        if (list[i].image_channel_order == order &&
            list[i].image_channel_data_type == type)
            return true;
    return false;
}

/* The OpenCL 3.0 minimum list ("Minimum list of supported image formats"
 * for read-only, write-only and read-write images): CL_RGBA in every
 * plain type, CL_BGRA CL_UNORM_INT8, CL_R in each. */
static void check_minimum_formats(cl_mem_flags flags, cl_mem_object_type type)
{
    static const cl_channel_type rgba[] = {
        CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SNORM_INT8,
        CL_SNORM_INT16,   CL_SIGNED_INT8,    CL_SIGNED_INT16,
        CL_SIGNED_INT32,  CL_UNSIGNED_INT8,  CL_UNSIGNED_INT16,
        CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT,
    };
    cl_image_format list[256];
    cl_uint count = formats_of(flags, type, list, 256);
    CHECK(count > 0 && count <= 256);
    for (size_t i = 0; i < COUNT(rgba); i++) {
        CHECK(listed(list, count, CL_RGBA, rgba[i]));
        CHECK(listed(list, count, CL_R, rgba[i]));
    }
    CHECK(listed(list, count, CL_BGRA, CL_UNORM_INT8));
    bool writes = flags != CL_MEM_READ_ONLY;
    /* sRGB writes need cl_khr_srgb_image_writes, which is not listed. */
    CHECK_EQ(listed(list, count, CL_sRGBA, CL_UNORM_INT8), !writes);
    /* "CL_DEPTH image channel order can only be used with 2D images and 2D
     * image arrays". */
    bool depth = type == CL_MEM_OBJECT_IMAGE2D ||
                 type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    CHECK_EQ(listed(list, count, CL_DEPTH, CL_FLOAT), depth);
    /* Never a combination the spec's table forbids. */
    CHECK(!listed(list, count, CL_BGRA, CL_FLOAT));
    CHECK(!listed(list, count, CL_RGB, CL_UNORM_INT8));
    CHECK(!listed(list, count, CL_INTENSITY, CL_SIGNED_INT8));
    for (cl_uint i = 0; i < count; i++)
        for (cl_uint j = i + 1; j < count; j++)
            CHECK(memcmp(&list[i], &list[j], sizeof(list[i])) != 0);
}

static void check_formats(void)
{
    const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                  CL_MEM_READ_WRITE,
                                  CL_MEM_KERNEL_READ_AND_WRITE};
    for (size_t f = 0; f < COUNT(flags); f++)
        for (size_t t = 0; t < COUNT(all_types); t++)
            check_minimum_formats(flags[f], all_types[t]);
    /* A short array gets the first entries, the count all of them. */
    cl_image_format two[2];
    cl_uint count = 0;
    CHECK_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_IMAGE2D, 2, two, &count),
             CL_SUCCESS);
    CHECK(count > 2);
    /* CL_INVALID_VALUE "if flags or image_type are not valid, or if
     * num_entries is 0 and image_formats is not NULL". */
    CHECK_EQ(clGetSupportedImageFormats(context,
                                        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                                        CL_MEM_OBJECT_IMAGE2D, 2, two, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_BUFFER, 2, two, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_IMAGE2D, 0, two, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetSupportedImageFormats((cl_context)device, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                        &count),
             CL_INVALID_CONTEXT);
}

/* ---- creation ----------------------------------------------------------- */

static cl_image_desc desc_of(cl_mem_object_type type, size_t w, size_t h,
                             size_t d, size_t layers)
{
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = type;
    desc.image_width = w;
    desc.image_height = h;
    desc.image_depth = d;
    desc.image_array_size = layers;
    return desc;
}

/* clCreateImage(@p flags, @p format, @p desc, @p host_ptr) fails with
 * @p expected. */
static void check_refused(cl_mem_flags flags, const cl_image_format *format,
                          const cl_image_desc *desc, void *host_ptr,
                          cl_int expected)
{
    cl_int err = 1;
    cl_mem image = clCreateImage(context, flags, format, desc, host_ptr, &err);
    CHECK(image == NULL);
    CHECK_EQ(err, expected);
    if (image)
        clReleaseMemObject(image);
}

static cl_mem image_made(cl_mem_flags flags, const cl_image_format *format,
                         const cl_image_desc *desc, void *host_ptr)
{
    cl_int err = 1;
    cl_mem image = clCreateImage(context, flags, format, desc, host_ptr, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(image != NULL);
    return image;
}

static void check_creation_errors(void)
{
    const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0);
    char host[8 * 8 * 4 * 2];
    /* "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in
     * image_format are not valid or if image_format is NULL": CL_BGRA "can
     * only be used if channel data type = CL_UNORM_INT8, CL_SNORM_INT8,
     * CL_SIGNED_INT8 or CL_UNSIGNED_INT8"; CL_RGB only with packed types. */
    check_refused(0, NULL, &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    const cl_image_format bgra_float = {CL_BGRA, CL_FLOAT};
    check_refused(0, &bgra_float, &d2, NULL,
                  CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    const cl_image_format rgb8 = {CL_RGB, CL_UNORM_INT8};
    check_refused(0, &rgb8, &d2, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    const cl_image_format nonsense = {0x1234, CL_FLOAT};
    check_refused(0, &nonsense, &d2, NULL,
                  CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    /* "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are
     * not valid or if image_desc is NULL". */
    check_refused(0, &rgba8, NULL, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc bad = desc_of(CL_MEM_OBJECT_BUFFER, 8, 8, 0, 0);
    check_refused(0, &rgba8, &bad, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    bad = desc_of(CL_MEM_OBJECT_IMAGE2D, 0, 8, 0, 0);
    check_refused(0, &rgba8, &bad, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    bad = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 8, 8, 0, 0);
    check_refused(0, &rgba8, &bad, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d2;
    bad.num_mip_levels = 1; /* "must be 0" */
    check_refused(0, &rgba8, &bad, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d2;
    bad.image_row_pitch = 64; /* "must be 0 if host_ptr is NULL" */
    check_refused(0, &rgba8, &bad, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    bad.image_row_pitch = 30; /* below width * 4 */
    check_refused(CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host,
                  CL_INVALID_IMAGE_DESCRIPTOR);
    bad.image_row_pitch = 34; /* not a multiple of the element size */
    check_refused(CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host,
                  CL_INVALID_IMAGE_DESCRIPTOR);
    /* CL_INVALID_IMAGE_SIZE "if image dimensions specified in image_desc
     * exceed the maximum image dimensions". */
    size_t max2d = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH,
                             sizeof(max2d), &max2d, NULL),
             CL_SUCCESS);
    bad = desc_of(CL_MEM_OBJECT_IMAGE2D, max2d + 1, 1, 0, 0);
    check_refused(0, &rgba8, &bad, NULL, CL_INVALID_IMAGE_SIZE);
    /* CL_INVALID_HOST_PTR "if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
     * CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
     * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set". */
    check_refused(CL_MEM_USE_HOST_PTR, &rgba8, &d2, NULL,
                  CL_INVALID_HOST_PTR);
    check_refused(0, &rgba8, &d2, host, CL_INVALID_HOST_PTR);
    /* CL_INVALID_VALUE "if values specified in flags are not valid". */
    check_refused(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &d2, NULL,
                  CL_INVALID_VALUE);
    check_refused(CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &d2, NULL,
                  CL_INVALID_VALUE);
    /* CL_IMAGE_FORMAT_NOT_SUPPORTED: sRGB images written by kernels, depth
     * images of three dimensions. */
    const cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
    check_refused(CL_MEM_WRITE_ONLY, &srgba, &d2, NULL,
                  CL_IMAGE_FORMAT_NOT_SUPPORTED);
    const cl_image_format depth = {CL_DEPTH, CL_FLOAT};
    cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0);
    check_refused(0, &depth, &d3, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    /* The OpenCL 1.1 calls: "CL_INVALID_IMAGE_SIZE if image_width or
     * image_height are 0". */
    cl_int err = 1;
    CHECK(clCreateImage2D(context, 0, &rgba8, 0, 8, 0, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_IMAGE_SIZE);
    CHECK(clCreateImage((cl_context)device, 0, &rgba8, &d2, NULL, &err) ==
          NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
}

static void check_from_buffer_errors(void)
{
    const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
    cl_mem small = test_buffer(context, CL_MEM_READ_WRITE, 100, NULL);
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
    d.buffer = small;
    /* 64 texels of 4 bytes need 256 bytes. */
    check_refused(0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
    /* "The CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and
     * CL_MEM_COPY_HOST_PTR values cannot be specified in flags". */
    d.image_width = 16;
    check_refused(CL_MEM_ALLOC_HOST_PTR, &rgba8, &d, NULL, CL_INVALID_VALUE);
    /* "mem_object can be a buffer memory object if image_type is
     * CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D". */
    cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 0);
    d3.buffer = small;
    check_refused(0, &rgba8, &d3, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
    /* A write-only buffer makes no readable image. */
    cl_mem write_only = test_buffer(context, CL_MEM_WRITE_ONLY, 256, NULL);
    d.buffer = write_only;
    check_refused(CL_MEM_READ_ONLY, &rgba8, &d, NULL, CL_INVALID_VALUE);
    CHECK_EQ(clReleaseMemObject(write_only), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(small), CL_SUCCESS);
}

/* ---- queries ------------------------------------------------------------ */

static size_t image_size_info(cl_mem image, cl_image_info name)
{
    size_t value = 12345;
    CHECK_EQ(clGetImageInfo(image, name, sizeof(value), &value, NULL),
             CL_SUCCESS);
    return value;
}

/* The spec's answers for one image of each type: "For a 1D image, 1D
 * image buffer and 1D image array object, height = 0", depth 0 but for 3D,
 * array size 0 but for arrays, slice pitch 0 for 1D and 2D. */
static void check_info_of(const cl_image_desc *desc, size_t h, size_t d,
                          size_t layers, size_t slice)
{
    const cl_image_format rg16 = {CL_RG, CL_UNSIGNED_INT16};
    cl_mem image = image_made(CL_MEM_READ_WRITE, &rg16, desc, NULL);
    if (!image)
        return;
    CHECK_EQ(image_size_info(image, CL_IMAGE_ELEMENT_SIZE), 4);
    CHECK_EQ(image_size_info(image, CL_IMAGE_WIDTH), desc->image_width);
    CHECK_EQ(image_size_info(image, CL_IMAGE_HEIGHT), h);
    CHECK_EQ(image_size_info(image, CL_IMAGE_DEPTH), d);
    CHECK_EQ(image_size_info(image, CL_IMAGE_ARRAY_SIZE), layers);
    CHECK_EQ(image_size_info(image, CL_IMAGE_ROW_PITCH),
             desc->image_width * 4);
    CHECK_EQ(image_size_info(image, CL_IMAGE_SLICE_PITCH), slice);
    cl_image_format format;
    CHECK_EQ(clGetImageInfo(image, CL_IMAGE_FORMAT, sizeof(format), &format,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(format.image_channel_order, CL_RG);
    CHECK_EQ(format.image_channel_data_type, CL_UNSIGNED_INT16);
    cl_uint mips = 7;
    CHECK_EQ(clGetImageInfo(image, CL_IMAGE_NUM_MIP_LEVELS, sizeof(mips),
                            &mips, NULL),
             CL_SUCCESS);
    CHECK_EQ(mips, 0);
    cl_mem_object_type type = 0;
    CHECK_EQ(clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof(type), &type,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(type, desc->image_type);
    CHECK_EQ(clGetImageInfo(image, 0x7777, sizeof(mips), &mips, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseMemObject(image), CL_SUCCESS);
}

static void check_info(void)
{
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE1D, 6, 0, 0, 0);
    check_info_of(&d, 0, 0, 0, 0);
    d = desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 6, 0, 0, 3);
    check_info_of(&d, 0, 0, 3, 24);
    d = desc_of(CL_MEM_OBJECT_IMAGE2D, 6, 5, 0, 0);
    check_info_of(&d, 5, 0, 0, 0);
    d = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 0, 3);
    check_info_of(&d, 5, 0, 3, 120);
    d = desc_of(CL_MEM_OBJECT_IMAGE3D, 6, 5, 4, 0);
    check_info_of(&d, 5, 4, 0, 120);
    cl_mem buffer = test_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    size_t value;
    /* CL_INVALID_MEM_OBJECT "if image is a not a valid image object". */
    CHECK_EQ(clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof(value), &value,
                            NULL),
             CL_INVALID_MEM_OBJECT);
    d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0);
    d.buffer = buffer;
    cl_mem view = image_made(0, &(cl_image_format){CL_R, CL_FLOAT}, &d, NULL);
    cl_mem associated = NULL, of_image = NULL;
    CHECK_EQ(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT,
                                sizeof(associated), &associated, NULL),
             CL_SUCCESS);
    CHECK(associated == buffer);
    CHECK_EQ(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof(of_image),
                            &of_image, NULL),
             CL_SUCCESS);
    CHECK(of_image == buffer);
    /* The image's flags are the buffer's where it gives none. */
    cl_mem_flags flags = 0;
    CHECK_EQ(clGetMemObjectInfo(view, CL_MEM_FLAGS, sizeof(flags), &flags,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(flags, CL_MEM_READ_WRITE);
    CHECK_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(view), CL_SUCCESS);
}

/* ---- data --------------------------------------------------------------- */

/* A 3D image of 4-byte texels, written through a padded host layout and
 * read back through a tight one: each texel where the pitches put it. */
static void check_write_read_3d(void)
{
    enum { W = 5, H = 4, D = 3, ROW = 32, SLICE = ROW * H + 16 };
    uint32_t padded[SLICE * D / 4];
    for (size_t i = 0; i < COUNT(padded); i++)
        padded[i] = 0xAA000000u | (uint32_t)i;
    const cl_image_format format = {CL_R, CL_UNSIGNED_INT32};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE3D, W, H, D, 0);
    cl_mem image = image_made(CL_MEM_READ_WRITE, &format, &d, NULL);
    const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, D};
    CHECK_EQ(clEnqueueWriteImage(queue, image, CL_TRUE, origin, region, ROW,
                                 SLICE, padded, 0, NULL, NULL),
             CL_SUCCESS);
    /* A sub-box read tightly. */
    const size_t at[3] = {1, 2, 1}, box[3] = {3, 2, 2};
    uint32_t tight[3 * 2 * 2];
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, at, box, 0, 0, tight,
                                0, NULL, NULL),
             CL_SUCCESS);
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 2; y++)
            for (size_t x = 0; x < 3; x++)
                CHECK_EQ(tight[(z * 2 + y) * 3 + x],
                         padded[((z + 1) * SLICE + (y + 2) * ROW) / 4 + x +
                                1]);
    /* CL_INVALID_VALUE "if the region being read specified by origin and
     * region is out of bounds", "The values in region cannot be 0". */
    const size_t past[3] = {3, 3, 3};
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, at, past, 0, 0, tight,
                                0, NULL, NULL),
             CL_INVALID_VALUE);
    const size_t empty[3] = {1, 0, 1};
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, empty, 0, 0,
                                tight, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, box, 0, 0,
                                NULL, 0, NULL, NULL),
             CL_INVALID_VALUE);
    /* A buffer command on an image: "if buffer is not a valid buffer
     * object". */
    CHECK_EQ(clEnqueueReadBuffer(queue, image, CL_TRUE, 0, 4, tight, 0, NULL,
                                 NULL),
             CL_INVALID_MEM_OBJECT);
    CHECK_EQ(clReleaseMemObject(image), CL_SUCCESS);
}

/* A 1D array's layers are its second coordinate; CL_MEM_COPY_HOST_PTR
 * takes the host's slice pitch. */
static void check_1d_array(void)
{
    enum { W = 4, LAYERS = 4, SLICE = 16 }; /* slice: two rows */
    uint16_t host[SLICE / 2 * LAYERS];
    for (size_t i = 0; i < COUNT(host); i++)
        host[i] = (uint16_t)(100 + i);
    const cl_image_format format = {CL_R, CL_UNSIGNED_INT16};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, W, 0, 0, LAYERS);
    d.image_slice_pitch = SLICE;
    cl_mem image = image_made(CL_MEM_COPY_HOST_PTR, &format, &d, host);
    const size_t origin[3] = {1, 1, 0}, region[3] = {2, 3, 1};
    uint16_t out[6];
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0,
                                out, 0, NULL, NULL),
             CL_SUCCESS);
    for (size_t layer = 0; layer < 3; layer++)
        for (size_t x = 0; x < 2; x++)
            CHECK_EQ(out[layer * 2 + x], host[(layer + 1) * 8 + x + 1]);
    /* "If image is a 1D image array object, region[2] must be 1". */
    const size_t deep[3] = {1, 1, 2};
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, deep, 0, 0,
                                out, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseMemObject(image), CL_SUCCESS);
}

/* The host's rendering of the spec's rules for one float channel:
 * "convert_uchar_sat_rte(f * 255.0f)" and the like. */
static long rte_sat(double f, double scale, long lo, long hi)
{
    double x = nearbyint(f * scale);
    return x < lo ? lo : x > hi ? hi : (long)x;
}

/* Fills a 1x1 image of @p format with @p color and returns its texel. */
static void filled_texel(cl_channel_order order, cl_channel_type type,
                         const void *color, void *texel, size_t size)
{
    const cl_image_format format = {order, type};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 2, 2, 0, 0);
    cl_mem image = image_made(CL_MEM_READ_ONLY, &format, &d, NULL);
    const size_t origin[3] = {1, 1, 0}, region[3] = {1, 1, 1};
    CHECK_EQ(clEnqueueFillImage(queue, image, color, origin, region, 0, NULL,
                                NULL),
             CL_SUCCESS);
    unsigned char all[64];
    memset(all, 0x55, sizeof(all));
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0,
                                all, 0, NULL, NULL),
             CL_SUCCESS);
    memcpy(texel, all, size);
    CHECK_EQ(clReleaseMemObject(image), CL_SUCCESS);
}

static void check_fill_conversions(void)
{
    const float c[4] = {0.5f, -0.3f, 1.7f, 0.2f};
    uint8_t u8[4];
    filled_texel(CL_RGBA, CL_UNORM_INT8, c, u8, 4);
    CHECK_EQ(u8[0], rte_sat(0.5, 255, 0, 255)); /* 127.5: to even, 128 */
    CHECK_EQ(u8[1], 0);
    CHECK_EQ(u8[2], 255);
    CHECK_EQ(u8[3], rte_sat(0.2, 255, 0, 255));
    /* CL_BGRA stores blue first. */
    filled_texel(CL_BGRA, CL_UNORM_INT8, c, u8, 4);
    CHECK_EQ(u8[0], 255);
    CHECK_EQ(u8[2], 128);
    int8_t s8[4];
    filled_texel(CL_RGBA, CL_SNORM_INT8, c, s8, 4);
    CHECK_EQ(s8[0], rte_sat(0.5, 127, -128, 127));
    CHECK_EQ(s8[1], rte_sat(-0.3, 127, -128, 127));
    CHECK_EQ(s8[2], 127);
    int16_t s16[2];
    filled_texel(CL_RG, CL_SNORM_INT16, c, s16, 4);
    CHECK_EQ(s16[1], rte_sat(-0.3, 32767, -32768, 32767));
    /* "the channels are packed with the first channel in the most
     * significant bits": 565 of (0.5, -0.3, 1.7). */
    uint16_t p565;
    filled_texel(CL_RGB, CL_UNORM_SHORT_565, c, &p565, 2);
    CHECK_EQ(p565, (rte_sat(0.5, 31, 0, 31) << 11) | (0 << 5) | 31);
    uint32_t p1010;
    filled_texel(CL_RGB, CL_UNORM_INT_101010, c, &p1010, 4);
    CHECK_EQ(p1010 & 0x3FFFFFFFu,
             (uint32_t)((rte_sat(0.5, 1023, 0, 1023) << 20) | 1023));
    /* Half: 1 + 2^-11 is a tie, rounded to the even 1.0; 65520 rounds to
     * infinity, 65519 to the largest half. */
    const float h[4] = {1.0f + 1.0f / 2048.0f, 65520.0f, 65519.0f, -0.0f};
    uint16_t half[4];
    filled_texel(CL_RGBA, CL_HALF_FLOAT, h, half, 8);
    CHECK_EQ(half[0], 0x3C00);
    CHECK_EQ(half[1], 0x7C00);
    CHECK_EQ(half[2], 0x7BFF);
    CHECK_EQ(half[3], 0x8000);
    /* Integers saturate: "convert_char_sat", "convert_ushort_sat". */
    const cl_int si[4] = {300, -300, 5, -5};
    int8_t i8[4];
    filled_texel(CL_RGBA, CL_SIGNED_INT8, si, i8, 4);
    CHECK(i8[0] == 127 && i8[1] == -128 && i8[2] == 5 && i8[3] == -5);
    const cl_uint ui[4] = {70000, 1, 2, 3};
    uint16_t u16[4];
    filled_texel(CL_RGBA, CL_UNSIGNED_INT16, ui, u16, 8);
    CHECK(u16[0] == 65535 && u16[1] == 1 && u16[3] == 3);
    /* sRGB: "c = 1.055 * powr(c, 1.0/2.4) - 0.055; scaled_reg = c * 255;
     * channel_component = floor(scaled_reg + 0.5)"; alpha linear. */
    filled_texel(CL_sRGBA, CL_UNORM_INT8, c, u8, 4);
    CHECK_EQ(u8[0], (long)floor((1.055 * pow(0.5, 1 / 2.4) - 0.055) * 255 +
                                0.5));
    CHECK_EQ(u8[3], rte_sat(0.2, 255, 0, 255));
    /* CL_INTENSITY stores its one channel, red. */
    float one;
    filled_texel(CL_INTENSITY, CL_FLOAT, c, &one, 4);
    CHECK_EQ(one, 0.5f);
}

/* Copies between images and buffers, the spec's errors, and a map. */
static void check_copies_and_map(void)
{
    enum { W = 6, H = 4 };
    uint32_t src[W * H];
    for (size_t i = 0; i < COUNT(src); i++)
        src[i] = 0x01000000u * (uint32_t)i + 7;
    const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    cl_mem a = image_made(CL_MEM_COPY_HOST_PTR, &format, &d, src);
    cl_mem b = image_made(0, &format, &d, NULL);
    const size_t zero[3] = {0, 0, 0}, two[3] = {2, 1, 0};
    const size_t region[3] = {3, 2, 1};
    CHECK_EQ(clEnqueueCopyImage(queue, a, b, zero, two, region, 0, NULL,
                                NULL),
             CL_SUCCESS);
    /* CL_MEM_COPY_OVERLAP "if src_image and dst_image are the same image
     * object and the source and destination regions overlap". */
    const size_t one[3] = {1, 1, 0};
    CHECK_EQ(clEnqueueCopyImage(queue, a, a, zero, one, region, 0, NULL,
                                NULL),
             CL_MEM_COPY_OVERLAP);
    const cl_image_format other = {CL_RGBA, CL_SIGNED_INT8};
    cl_mem c = image_made(0, &other, &d, NULL);
    CHECK_EQ(clEnqueueCopyImage(queue, a, c, zero, zero, region, 0, NULL,
                                NULL),
             CL_IMAGE_FORMAT_MISMATCH);
    /* Image to buffer, tightly at an offset; back into the first image. */
    cl_mem buffer = test_buffer(context, CL_MEM_READ_WRITE, 64, NULL);
    CHECK_EQ(clEnqueueCopyImageToBuffer(queue, b, buffer, two, region, 8, 0,
                                        NULL, NULL),
             CL_SUCCESS);
    uint32_t words[16];
    CHECK_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, 64, words, 0,
                                 NULL, NULL),
             CL_SUCCESS);
    for (size_t y = 0; y < 2; y++)
        for (size_t x = 0; x < 3; x++)
            CHECK_EQ(words[2 + y * 3 + x], src[y * W + x]);
    CHECK_EQ(clEnqueueCopyImageToBuffer(queue, b, buffer, two, region, 48, 0,
                                        NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clEnqueueCopyBufferToImage(queue, buffer, a, 8, one, region, 0,
                                        NULL, NULL),
             CL_SUCCESS);
    /* A map: the texel at the origin, the image's own row pitch. */
    size_t row = 0, slice = 99;
    cl_int err = 1;
    uint32_t *p = clEnqueueMapImage(queue, a, CL_TRUE, CL_MAP_READ, one,
                                    region, &row, &slice, 0, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(row, W * 4);
    CHECK_EQ(slice, 0);
    if (p)
        for (size_t y = 0; y < 2; y++)
            for (size_t x = 0; x < 3; x++)
                CHECK_EQ(p[y * W + x], src[y * W + x]);
    CHECK_EQ(clEnqueueUnmapMemObject(queue, a, p, 0, NULL, NULL), CL_SUCCESS);
    /* CL_INVALID_VALUE "if image_row_pitch is NULL". */
    CHECK(clEnqueueMapImage(queue, a, CL_TRUE, CL_MAP_READ, one, region,
                            NULL, NULL, 0, NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(c), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
}

/* CL_MEM_USE_HOST_PTR: the image is the application's memory, with its
 * pitch; a host-access flag forbids the reads it names. */
static void check_use_host_ptr(void)
{
    enum { W = 3, H = 2, ROW = 16 };
    float host[ROW / 4 * H] = {0};
    const cl_image_format format = {CL_R, CL_FLOAT};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    d.image_row_pitch = ROW;
    cl_mem image = image_made(CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY,
                              &format, &d, host);
    const float colour[4] = {2.5f, 0, 0, 0};
    const size_t origin[3] = {1, 1, 0}, region[3] = {2, 1, 1};
    CHECK_EQ(clEnqueueFillImage(queue, image, colour, origin, region, 0, NULL,
                                NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(host[ROW / 4 + 1], 2.5f);
    CHECK_EQ(host[ROW / 4 + 2], 2.5f);
    CHECK_EQ(host[ROW / 4], 0.0f);
    CHECK_EQ(image_size_info(image, CL_IMAGE_ROW_PITCH), ROW);
    float out[2];
    CHECK_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0,
                                out, 0, NULL, NULL),
             CL_INVALID_OPERATION);
    CHECK_EQ(clReleaseMemObject(image), CL_SUCCESS);
}

/* ---- samplers ----------------------------------------------------------- */

static void check_samplers(void)
{
    cl_int err = 1;
    cl_sampler s = clCreateSampler(context, CL_TRUE, CL_ADDRESS_REPEAT,
                                   CL_FILTER_LINEAR, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_addressing_mode address = 0;
    cl_filter_mode filter = 0;
    cl_bool normalized = CL_FALSE;
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof(address),
                              &address, NULL),
             CL_SUCCESS);
    CHECK_EQ(address, CL_ADDRESS_REPEAT);
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof(filter),
                              &filter, NULL),
             CL_SUCCESS);
    CHECK_EQ(filter, CL_FILTER_LINEAR);
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS,
                              sizeof(normalized), &normalized, NULL),
             CL_SUCCESS);
    CHECK_EQ(normalized, CL_TRUE);
    size_t size = 9;
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, 0);
    CHECK_EQ(clRetainSampler(s), CL_SUCCESS);
    cl_uint refs = 0;
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof(refs),
                              &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 2);
    CHECK_EQ(clReleaseSampler(s), CL_SUCCESS);
    CHECK_EQ(clReleaseSampler(s), CL_SUCCESS);
    /* "If a supported property and its value is not specified in
     * sampler_properties, its default value will be used": normalized,
     * CL_ADDRESS_CLAMP, CL_FILTER_NEAREST. */
    const cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE,
                                           CL_FILTER_LINEAR, 0};
    s = clCreateSamplerWithProperties(context, props, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof(address),
                              &address, NULL),
             CL_SUCCESS);
    CHECK_EQ(address, CL_ADDRESS_CLAMP);
    cl_sampler_properties back[3] = {0};
    CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof(back), back,
                              &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(props));
    CHECK(back[0] == CL_SAMPLER_FILTER_MODE && back[2] == 0);
    CHECK_EQ(clReleaseSampler(s), CL_SUCCESS);
    /* CL_INVALID_VALUE "if the property name in sampler_properties is not a
     * supported property name, if the value specified for a supported
     * property name is not valid, or if the same property name is
     * specified more than once". */
    const cl_sampler_properties twice[] = {
        CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
        CL_FILTER_NEAREST, 0};
    CHECK(clCreateSamplerWithProperties(context, twice, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    const cl_sampler_properties unknown[] = {0x7777, 1, 0};
    CHECK(clCreateSamplerWithProperties(context, unknown, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateSampler(context, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST,
                          &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateSampler(context, CL_TRUE, 0x9999, CL_FILTER_NEAREST,
                          &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateSampler((cl_context)device, CL_TRUE, CL_ADDRESS_CLAMP,
                          CL_FILTER_NEAREST, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_CONTEXT);
    CHECK_EQ(clGetSamplerInfo((cl_sampler)context, CL_SAMPLER_FILTER_MODE,
                              sizeof(filter), &filter, NULL),
             CL_INVALID_SAMPLER);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue))
        return 1;
    cl_bool images = CL_FALSE;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images),
                             &images, NULL),
             CL_SUCCESS);
    CHECK_EQ(images, CL_TRUE);
    check_formats();
    check_creation_errors();
    check_from_buffer_errors();
    check_info();
    check_write_read_3d();
    check_1d_array();
    check_fill_conversions();
    check_copies_and_map();
    check_use_host_ptr();
    check_samplers();
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image/image: refcl has no image support (CL_DEVICE_IMAGE_SUPPORT is
 * CL_FALSE). clGetSupportedImageFormats succeeds with zero formats for
 * every valid flags and image type, and checks its arguments; every image
 * and sampler creation returns CL_INVALID_OPERATION, after
 * CL_INVALID_CONTEXT.
 */
#include "check.h"

static cl_device_id device;
static cl_context context;

static void check_formats(void)
{
    const cl_mem_flags flags[] = {
        0,
        CL_MEM_READ_WRITE,
        CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY,
        CL_MEM_KERNEL_READ_AND_WRITE,
        CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
            CL_MEM_HOST_NO_ACCESS,
    };
    const cl_mem_object_type types[] = {
        CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
        CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE3D,
        CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY,
    };
    for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
            cl_uint count = 7;
            cl_image_format formats[4];
            CHECK_EQ(clGetSupportedImageFormats(context, flags[f], types[t], 0,
                                                NULL, &count),
                     CL_SUCCESS);
            CHECK_EQ(count, 0);
            count = 7;
            CHECK_EQ(clGetSupportedImageFormats(context, flags[f], types[t], 4,
                                                formats, &count),
                     CL_SUCCESS);
            CHECK_EQ(count, 0);
        }
    }
    CHECK_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_IMAGE2D, 0, NULL, NULL),
             CL_SUCCESS);

    /* CL_INVALID_VALUE "if flags or image_type are not valid, or if
     * num_entries is 0 and image_formats is not NULL". */
    const cl_mem_flags bad_flags[] = {
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
        CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
        CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY,
        CL_MEM_SVM_FINE_GRAIN_BUFFER,
        (cl_mem_flags)1 << 40,
    };
    cl_uint count = 7;
    cl_image_format formats[4];
    for (size_t i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++)
        CHECK_EQ(clGetSupportedImageFormats(context, bad_flags[i],
                                            CL_MEM_OBJECT_IMAGE2D, 4, formats,
                                            &count),
                 CL_INVALID_VALUE);
    const cl_mem_object_type bad_types[] = {CL_MEM_OBJECT_BUFFER,
                                            CL_MEM_OBJECT_PIPE, 0, 0x10F8};
    for (size_t i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++)
        CHECK_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE,
                                            bad_types[i], 4, formats, &count),
                 CL_INVALID_VALUE);
    CHECK_EQ(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_IMAGE2D, 0, formats,
                                        &count),
             CL_INVALID_VALUE);
    CHECK_EQ(count, 7);
    CHECK_EQ(clGetSupportedImageFormats((cl_context)device, CL_MEM_READ_WRITE,
                                        CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                        &count),
             CL_INVALID_CONTEXT);
    if (!test_through_loader())
        CHECK_EQ(clGetSupportedImageFormats(NULL, CL_MEM_READ_WRITE,
                                            CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                            &count),
                 CL_INVALID_CONTEXT);
}

/* Each creation call with @p target as its context returns @p expected. */
static void check_creations(cl_context target, cl_int expected)
{
    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = 16;
    const cl_sampler_properties sampler_props[] = {
        CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};

    cl_int err = 1;
    CHECK(clCreateImage(target, CL_MEM_READ_WRITE, &format, &desc, NULL,
                        &err) == NULL);
    CHECK_EQ(err, expected);
    err = 1;
    CHECK(clCreateImageWithProperties(target, NULL, CL_MEM_READ_WRITE,
                                      &format, &desc, NULL, &err) == NULL);
    CHECK_EQ(err, expected);
    err = 1;
    CHECK(clCreateImage2D(target, CL_MEM_READ_WRITE, &format, 16, 16, 0, NULL,
                          &err) == NULL);
    CHECK_EQ(err, expected);
    err = 1;
    CHECK(clCreateImage3D(target, CL_MEM_READ_WRITE, &format, 16, 16, 16, 0,
                          0, NULL, &err) == NULL);
    CHECK_EQ(err, expected);
    err = 1;
    CHECK(clCreateSampler(target, CL_FALSE, CL_ADDRESS_CLAMP,
                          CL_FILTER_NEAREST, &err) == NULL);
    CHECK_EQ(err, expected);
    err = 1;
    CHECK(clCreateSamplerWithProperties(target, sampler_props, &err) == NULL);
    CHECK_EQ(err, expected);
    CHECK(clCreateImage(target, CL_MEM_READ_WRITE, &format, &desc, NULL,
                        NULL) == NULL);
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_bool images = CL_TRUE;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images),
                             &images, NULL),
             CL_SUCCESS);
    CHECK_EQ(images, CL_FALSE);
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);

    check_formats();
    /* CL_INVALID_OPERATION "if there are no devices in context that support
     * images"; "if images are not supported by any device associated with
     * context" (samplers). */
    check_creations(context, CL_INVALID_OPERATION);
    check_creations((cl_context)device, CL_INVALID_CONTEXT);

    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context/context: clCreateContext and clCreateContextFromType (properties,
 * device lists, callbacks), clGetContextInfo, reference counts, destructor
 * callbacks and the loader's dispatch data.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

typedef cl_int (*set_disp_data_fn)(cl_platform_id, void *);

static cl_platform_id platform;
static cl_device_id device;

static cl_uint context_uint(cl_context context, cl_context_info param)
{
    cl_uint value = 0xdeadbeef;
    size_t size = 0;
    CHECK_EQ(clGetContextInfo(context, param, sizeof(value), &value, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_uint));
    return value;
}

/* Creates a context from @p properties and checks that it echoes them. */
static void check_valid_properties(const cl_context_properties *properties,
                                   size_t count)
{
    cl_int err = 1;
    cl_context context =
        clCreateContext(properties, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK(context != NULL);
    if (!context)
        return;
    cl_context_properties echoed[8];
    size_t size = 99;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, sizeof(echoed),
                              echoed, &size),
             CL_SUCCESS);
    CHECK_EQ(size, count * sizeof(cl_context_properties));
    CHECK(size == 0 || memcmp(echoed, properties, size) == 0);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

static void check_properties(void)
{
    const cl_context_properties p = (cl_context_properties)platform;
    const cl_context_properties d = (cl_context_properties)device;

    check_valid_properties(NULL, 0);
    check_valid_properties((cl_context_properties[]){0}, 1);
    check_valid_properties((cl_context_properties[]){CL_CONTEXT_PLATFORM, p, 0},
                           3);
    check_valid_properties(
        (cl_context_properties[]){CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0}, 3);
    check_valid_properties(
        (cl_context_properties[]){CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE,
                                  CL_CONTEXT_PLATFORM, p, 0},
        5);

    const struct {
        cl_context_properties list[6];
        cl_int expected;
    } bad[] = {
        {{0x1234, 0, 0}, CL_INVALID_PROPERTY},
        {{CL_CONTEXT_PLATFORM, p, CL_CONTEXT_PLATFORM, p, 0}, CL_INVALID_PROPERTY},
        {{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC,
          CL_TRUE, 0},
         CL_INVALID_PROPERTY},
        {{CL_CONTEXT_INTEROP_USER_SYNC, 2, 0}, CL_INVALID_PROPERTY},
        {{CL_CONTEXT_PLATFORM, d, 0}, CL_INVALID_PLATFORM},
        {{CL_CONTEXT_PLATFORM, p, 0x4025 /* CL_CONTEXT_ADAPTER_D3D9_KHR */, 0,
          0},
         CL_INVALID_PROPERTY},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cl_int err = 1;
        CHECK(clCreateContext(bad[i].list, 1, &device, NULL, NULL, &err) ==
              NULL);
        CHECK_EQ(err, bad[i].expected);
        err = 1;
        CHECK(clCreateContextFromType(bad[i].list, CL_DEVICE_TYPE_CPU, NULL,
                                      NULL, &err) == NULL);
        /* With no CL_CONTEXT_PLATFORM in the list, ocl-icd has no platform
         * to dispatch to and answers CL_INVALID_PLATFORM itself. */
        bool loader_answers = test_through_loader() &&
                              bad[i].list[0] != CL_CONTEXT_PLATFORM &&
                              bad[i].list[2] != CL_CONTEXT_PLATFORM;
        CHECK_EQ(err, loader_answers ? CL_INVALID_PLATFORM : bad[i].expected);
    }
}

struct notes {
    int calls;
    char last[256];
};

static void CL_CALLBACK note_error(const char *errinfo, const void *info,
                                   size_t cb, void *user_data)
{
    (void)info;
    (void)cb;
    struct notes *notes = user_data;
    notes->calls++;
    snprintf(notes->last, sizeof(notes->last), "%s", errinfo);
}

static void check_devices(void)
{
    cl_int err = 1;
    CHECK(clCreateContext(NULL, 0, &device, NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    int data;
    CHECK(clCreateContext(NULL, 1, &device, NULL, &data, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);
    CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL, &data,
                                  &err) == NULL);
    CHECK_EQ(err, CL_INVALID_VALUE);

    /* "Duplicate devices specified in devices are ignored." */
    cl_device_id three[3] = {device, device, device};
    cl_context context = clCreateContext(NULL, 3, three, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(context_uint(context, CL_CONTEXT_NUM_DEVICES), 1);
    cl_device_id listed[4] = {NULL};
    size_t size = 0;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof(listed),
                              listed, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_device_id));
    CHECK(listed[0] == device);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);

    /* A device refcl did not hand out, reported through pfn_notify too. */
    struct notes notes = {0};
    cl_device_id bad[2] = {device, (cl_device_id)platform};
    CHECK(clCreateContext(NULL, 2, bad, note_error, &notes, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    CHECK_EQ(notes.calls, 1);
    CHECK(strncmp(notes.last, "clCreateContext: CL_INVALID_DEVICE: ",
                  strlen("clCreateContext: CL_INVALID_DEVICE: ")) == 0);
    CHECK(strstr(notes.last, ": not a live cl_device_id") != NULL);
    /* errcode_ret may be NULL. */
    CHECK(clCreateContext(NULL, 2, bad, NULL, NULL, NULL) == NULL);
    if (!test_through_loader()) {
        cl_device_id zeroed = test_zeroed_handle();
        CHECK(clCreateContext(NULL, 1, &zeroed, NULL, NULL, &err) == NULL);
        CHECK_EQ(err, CL_INVALID_DEVICE);
    }
}

static void check_from_type(void)
{
    const cl_device_type types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL,
                                    CL_DEVICE_TYPE_DEFAULT,
                                    CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU};
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           (cl_context_properties)platform, 0};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        cl_int err = 1;
        cl_context context =
            clCreateContextFromType(props, types[i], NULL, NULL, &err);
        CHECK_EQ(err, CL_SUCCESS);
        CHECK_EQ(context_uint(context, CL_CONTEXT_NUM_DEVICES), 1);
        cl_device_id listed = NULL;
        CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof(listed),
                                  &listed, NULL),
                 CL_SUCCESS);
        CHECK(listed == device);
        CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    }
    cl_int err = 1;
    CHECK(clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL,
                                  &err) == NULL);
    CHECK_EQ(err, CL_DEVICE_NOT_FOUND);
    CHECK(clCreateContextFromType(props, (cl_device_type)1 << 40, NULL, NULL,
                                  &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE_TYPE);
    if (!test_through_loader()) {
        /* NULL properties pick refcl's platform. */
        cl_context context = clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU,
                                                     NULL, NULL, &err);
        CHECK_EQ(err, CL_SUCCESS);
        CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    }
}

static void check_info_and_refcount(void)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(context_uint(context, CL_CONTEXT_REFERENCE_COUNT), 1);
    CHECK_EQ(clRetainContext(context), CL_SUCCESS);
    CHECK_EQ(context_uint(context, CL_CONTEXT_REFERENCE_COUNT), 2);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(context_uint(context, CL_CONTEXT_REFERENCE_COUNT), 1);

    cl_uint value = 7;
    size_t size = 7;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(cl_uint));
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES,
                              sizeof(value) - 1, &value, &size),
             CL_INVALID_VALUE);
    CHECK_EQ(value, 7);
    cl_device_id listed;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES,
                              sizeof(listed) - 1, &listed, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetContextInfo(context, 0x1086, sizeof(value), &value, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clGetContextInfo(context, 0, sizeof(value), &value, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);

    /* Released, foreign and wrong-type handles. */
    cl_context bad[] = {context, (cl_context)device, (cl_context)platform};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK_EQ(clGetContextInfo(bad[i], CL_CONTEXT_NUM_DEVICES,
                                  sizeof(value), &value, NULL),
                 CL_INVALID_CONTEXT);
        CHECK_EQ(clRetainContext(bad[i]), CL_INVALID_CONTEXT);
        CHECK_EQ(clReleaseContext(bad[i]), CL_INVALID_CONTEXT);
    }
    if (!test_through_loader()) {
        CHECK_EQ(clRetainContext(test_zeroed_handle()), CL_INVALID_CONTEXT);
        CHECK_EQ(clReleaseContext(test_unmapped_handle()), CL_INVALID_CONTEXT);
        CHECK_EQ(clReleaseContext(NULL), CL_INVALID_CONTEXT);
    }
}

static int order[8];
static int calls;

static void CL_CALLBACK record_destructor(cl_context context, void *user_data)
{
    (void)context;
    if (calls < 8)
        order[calls] = (int)(intptr_t)user_data;
    calls++;
}

static void check_destructors(void)
{
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    for (intptr_t i = 1; i <= 3; i++)
        CHECK_EQ(clSetContextDestructorCallback(context, record_destructor,
                                                (void *)i),
                 CL_SUCCESS);
    CHECK_EQ(clSetContextDestructorCallback(context, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(clSetContextDestructorCallback((cl_context)device,
                                            record_destructor, NULL),
             CL_INVALID_CONTEXT);
    CHECK_EQ(clRetainContext(context), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(calls, 0);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    /* Once each, most recently registered first. */
    CHECK_EQ(calls, 3);
    CHECK_EQ(order[0], 3);
    CHECK_EQ(order[1], 2);
    CHECK_EQ(order[2], 1);
}

/* The context carries the platform's dispatch data (cl_khr_icd 2.0). */
static void check_disp_data(void)
{
    void *platform_data = test_object_word(platform, 1);
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(test_object_word(context, 0) == test_object_word(platform, 0));
    CHECK(test_object_word(context, 1) == platform_data);
    if (!platform_data) { /* not loader-managed: set it ourselves */
        static int marker;
        set_disp_data_fn set = (set_disp_data_fn)
            clGetExtensionFunctionAddressForPlatform(
                platform, "clIcdSetPlatformDispatchDataKHR");
        CHECK_EQ(set(platform, &marker), CL_SUCCESS);
        CHECK(test_object_word(context, 1) == &marker);
        CHECK_EQ(set(platform, NULL), CL_SUCCESS);
    }
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
}

/* Sub-devices and root devices mix in one context, which keeps its
 * devices alive: a sub-device released by the application lives on until
 * the context goes. Runs on a synthetic 4-unit machine (CMakeLists.txt). */
static void check_sub_devices(void)
{
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subs[4];
    cl_uint count = 0;
    CHECK_EQ(clCreateSubDevices(device, equally, 4, subs, &count), CL_SUCCESS);
    CHECK_EQ(count, 4);
    if (count != 4)
        return;
    cl_device_id mix[3] = {subs[0], device, subs[1]};
    cl_int err = 1;
    cl_context context = clCreateContext(NULL, 3, mix, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_device_id listed[3] = {NULL};
    size_t size = 0;
    CHECK_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof(listed),
                              listed, &size),
             CL_SUCCESS);
    CHECK_EQ(size, sizeof(mix));
    /* The devices exactly as given: sub-devices stay sub-devices. */
    CHECK(memcmp(listed, mix, sizeof(mix)) == 0);

    cl_uint refs = 0;
    CHECK_EQ(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT, sizeof(refs),
                             &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 2); /* the application's and the context's */
    for (cl_uint i = 0; i < count; i++)
        CHECK_EQ(clReleaseDevice(subs[i]), CL_SUCCESS);
    /* subs[0] lives on in the context; subs[2] is gone. */
    CHECK_EQ(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT, sizeof(refs),
                             &refs, NULL),
             CL_SUCCESS);
    CHECK_EQ(refs, 1);
    CHECK_EQ(clGetDeviceInfo(subs[2], CL_DEVICE_REFERENCE_COUNT, sizeof(refs),
                             &refs, NULL),
             CL_INVALID_DEVICE);
    /* A released device cannot join a new context. */
    CHECK(clCreateContext(NULL, 1, &subs[2], NULL, NULL, &err) == NULL);
    CHECK_EQ(err, CL_INVALID_DEVICE);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(subs[0], CL_DEVICE_REFERENCE_COUNT, sizeof(refs),
                             &refs, NULL),
             CL_INVALID_DEVICE);
}

int main(void)
{
    if (!test_first_device(&platform, &device))
        return 1;
    check_properties();
    check_devices();
    check_from_type();
    check_info_and_refcount();
    check_destructors();
    check_disp_data();
    check_sub_devices();
    return TEST_RESULT();
}

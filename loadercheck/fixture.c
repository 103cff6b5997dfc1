/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The objects every check passes: one of each kind per vendor, made
 * through the vendor's own dispatch table rather than the loader's, so
 * that a loader bug cannot hand a check a wrong object. Each object is
 * made with its real create function; one that refcl cannot make yet is
 * left NULL with the reason, and the checks that need it are skipped.
 */
#include <stdio.h>
#include <string.h>

#include "session.h"

static const char kernel_source[] =
    "kernel void refcl_check(global int *out) { out[0] = 1; }";

static void missing(struct fixture *fixture, enum object_type type,
                    const char *format, const char *function, cl_int err)
{
    snprintf(fixture->missing[type], sizeof(fixture->missing[type]), format,
             function, code_name(err));
}

static void make_context(const struct _cl_icd_dispatch *table,
                         struct fixture *fixture, cl_platform_id platform)
{
    cl_device_id device = NULL;
    cl_int err = table->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1,
                                       &device, NULL);
    if (err != CL_SUCCESS) {
        missing(fixture, OBJ_DEVICE, "%s returned %s", "clGetDeviceIDs", err);
        return;
    }
    fixture->objects[OBJ_DEVICE] = device;
    cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context context =
        table->clCreateContext(properties, 1, &device, NULL, NULL, &err);
    if (!context)
        missing(fixture, OBJ_CONTEXT, "%s returned %s", "clCreateContext",
                err);
    fixture->objects[OBJ_CONTEXT] = context;
}

/* A queue, and an event that has completed (so that waiting on it never
 * blocks a check). */
static void make_queue(const struct _cl_icd_dispatch *table,
                       struct fixture *fixture)
{
    cl_int err;
    cl_command_queue queue = table->clCreateCommandQueueWithProperties(
        fixture->objects[OBJ_CONTEXT], fixture->objects[OBJ_DEVICE], NULL,
        &err);
    if (!queue) {
        missing(fixture, OBJ_QUEUE, "%s returned %s",
                "clCreateCommandQueueWithProperties", err);
        missing(fixture, OBJ_EVENT, "no queue to make one on (%s: %s)",
                "clCreateCommandQueueWithProperties", err);
        return;
    }
    fixture->objects[OBJ_QUEUE] = queue;
    cl_event event = NULL;
    err = table->clEnqueueMarkerWithWaitList(queue, 0, NULL, &event);
    if (err == CL_SUCCESS)
        err = table->clWaitForEvents(1, &event);
    if (err != CL_SUCCESS)
        missing(fixture, OBJ_EVENT, "%s returned %s",
                "clEnqueueMarkerWithWaitList", err);
    else
        fixture->objects[OBJ_EVENT] = event;
    fixture->user_event =
        table->clCreateUserEvent(fixture->objects[OBJ_CONTEXT], &err);
}

static void make_program(const struct _cl_icd_dispatch *table,
                         struct fixture *fixture)
{
    cl_int err;
    const char *source = kernel_source;
    cl_program program = table->clCreateProgramWithSource(
        fixture->objects[OBJ_CONTEXT], 1, &source, NULL, &err);
    if (!program)
        missing(fixture, OBJ_PROGRAM, "%s returned %s",
                "clCreateProgramWithSource", err);
    fixture->objects[OBJ_PROGRAM] = program;
}

/* The built-in kernel to use: refcl_lookup_uchar, whose three arguments
 * are all buffers (a real clSetKernelArg can set each index with the
 * fixture's buffer), else the device's first. */
static void builtin_kernel_name(const struct _cl_icd_dispatch *table,
                                cl_device_id device, char *name, size_t size)
{
    char names[512] = "";
    table->clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS, sizeof(names),
                           names, NULL);
    const char *wanted = "refcl_lookup_uchar";
    const char *found = strstr(names, wanted);
    if (found && (found[strlen(wanted)] == ';' || !found[strlen(wanted)]))
        snprintf(name, size, "%s", wanted);
    else
        snprintf(name, size, "%.*s", (int)strcspn(names, ";"), names);
}

static void kernel_found(const struct _cl_icd_dispatch *table,
                         struct fixture *fixture, cl_kernel kernel)
{
    cl_uint args = 1;
    table->clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(args), &args,
                           NULL);
    fixture->objects[OBJ_KERNEL] = kernel;
    fixture->kernel_args = (int)args;
}

/* A kernel from the source program once it builds, else from the device's
 * built-in kernels, if it has any. */
static void make_kernel(const struct _cl_icd_dispatch *table,
                        struct fixture *fixture)
{
    cl_device_id device = fixture->objects[OBJ_DEVICE];
    cl_program program = fixture->objects[OBJ_PROGRAM];
    cl_int err = table->clBuildProgram(program, 1, &device, "", NULL, NULL);
    cl_kernel kernel = NULL;
    if (err == CL_SUCCESS &&
        table->clCreateKernelsInProgram(program, 1, &kernel, NULL) ==
            CL_SUCCESS) {
        kernel_found(table, fixture, kernel);
        return;
    }
    char name[128];
    builtin_kernel_name(table, device, name, sizeof(name));
    if (name[0]) {
        const char *list = name;
        cl_program builtin = table->clCreateProgramWithBuiltInKernels(
            fixture->objects[OBJ_CONTEXT], 1, &device, list, NULL);
        kernel = builtin ? table->clCreateKernel(builtin, name, NULL) : NULL;
        if (kernel) {
            kernel_found(table, fixture, kernel);
            return;
        }
    }
    missing(fixture, OBJ_KERNEL,
            "%s returned %s and the device has no built-in kernel",
            "clBuildProgram", err);
}

/* A buffer, else an image, else a pipe: any memory object will do for
 * routing. The buffer holds every offset and size a real call passes
 * (values.c), and the 256-byte table refcl_lookup_uchar reads. */
static void make_mem(const struct _cl_icd_dispatch *table,
                     struct fixture *fixture)
{
    cl_context context = fixture->objects[OBJ_CONTEXT];
    cl_int err;
    cl_mem mem = table->clCreateBuffer(context, CL_MEM_READ_WRITE, 256, NULL,
                                       &err);
    if (!mem) {
        cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
        cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                              .image_width = 4, .image_height = 4};
        mem = table->clCreateImage(context, CL_MEM_READ_WRITE, &format,
                                   &desc, NULL, NULL);
    }
    if (!mem)
        mem = table->clCreatePipe(context, CL_MEM_READ_WRITE, 4, 4, NULL,
                                  NULL);
    if (!mem)
        missing(fixture, OBJ_MEM,
                "%s returned %s (images and pipes neither)", "clCreateBuffer",
                err);
    fixture->objects[OBJ_MEM] = mem;
}

static void make_sampler(const struct _cl_icd_dispatch *table,
                         struct fixture *fixture)
{
    cl_int err;
    cl_sampler sampler = table->clCreateSamplerWithProperties(
        fixture->objects[OBJ_CONTEXT], NULL, &err);
    if (!sampler)
        missing(fixture, OBJ_SAMPLER, "%s returned %s",
                "clCreateSamplerWithProperties", err);
    fixture->objects[OBJ_SAMPLER] = sampler;
}

void fixture_build(struct session *session, int v)
{
    struct vendor *vendor = &session->vendors[v];
    struct fixture *fixture = &vendor->fixture;
    const struct _cl_icd_dispatch *table = vendor_table(vendor);
    fixture->objects[OBJ_PLATFORM] = vendor->platforms[0];
    make_context(table, fixture, vendor->platforms[0]);
    if (!fixture->objects[OBJ_CONTEXT]) {
        for (int t = OBJ_QUEUE; t < OBJ_COUNT; t++)
            snprintf(fixture->missing[t], sizeof(fixture->missing[t]),
                     "no context to make one in");
        return;
    }
    make_queue(table, fixture);
    make_program(table, fixture);
    make_mem(table, fixture);
    make_sampler(table, fixture);
    if (fixture->objects[OBJ_PROGRAM])
        make_kernel(table, fixture);
    else
        snprintf(fixture->missing[OBJ_KERNEL],
                 sizeof(fixture->missing[OBJ_KERNEL]), "no program");
}

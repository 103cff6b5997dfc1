/* SPDX-License-Identifier: Apache-2.0 */
/*
 * icd/journal, icd/journal-off: refcl's call journal (REFCL_JOURNAL,
 * cl_refcl_call_journal in CL/cl_ext_refcl.h). With REFCL_TEST_JOURNAL=on
 * the journal records each call's function, slot, platform, arguments,
 * outputs and result; clSetNextResultREFCL forces the next call's result;
 * clEnqueueMarkerREFCL makes an event; the REFCL ending of the names stands
 * for the platform's suffix. With it off, none of this is offered.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h" /* first: it sets CL_TARGET_OPENCL_VERSION */
#include "CL/cl_ext_refcl.h"

static clGetCallJournalREFCL_fn journal;
static clSetNextResultREFCL_fn force;
static cl_ulong seen;

/* The records since the last read; their number. */
static cl_uint records_since(cl_platform_id platform,
                             cl_call_record_refcl *records, cl_uint max)
{
    cl_uint held = 0;
    CHECK_EQ(journal(platform, seen, max, records, &held), CL_SUCCESS);
    cl_uint read = held < max ? held : max;
    if (read)
        seen = records[read - 1].sequence;
    return held;
}

/* Forgets every record so far. */
static void drain(cl_platform_id platform)
{
    cl_call_record_refcl records[8];
    while (records_since(platform, records, 8) > 8)
        ;
}

static void check_record(cl_platform_id platform, cl_device_id device)
{
    cl_call_record_refcl records[8];
    drain(platform);
    char name[64];
    memset(name, 0, sizeof(name)); /* the journal hashes all 64 bytes */
    size_t size = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name,
                             &size),
             CL_SUCCESS);
    CHECK_EQ(records_since(platform, records, 8), 1);
    const cl_call_record_refcl *r = &records[0];
    CHECK_STR(r->function, "clGetDeviceInfo");
    CHECK_EQ(r->slot, 3);
    CHECK(r->platform == platform);
    CHECK_EQ(r->num_args, 5);
    CHECK_EQ(r->flags, 0);
    CHECK(r->args[0] == (cl_ulong)(uintptr_t)device);
    CHECK_EQ(r->args[1], CL_DEVICE_NAME);
    CHECK_EQ(r->args[2], sizeof(name));
    CHECK(r->args[3] == (cl_ulong)(uintptr_t)name);
    CHECK_EQ(r->result, CL_SUCCESS);
    /* param_value_size_ret: 8 bytes, as they are. */
    CHECK_EQ(r->output_sizes[4], sizeof(size_t));
    CHECK_EQ(r->outputs[4], size);
    /* param_value: 64 bytes, hashed (FNV-1a). */
    CHECK_EQ(r->output_sizes[3], sizeof(name));
    cl_ulong hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < sizeof(name); i++)
        hash = (hash ^ (unsigned char)name[i]) * 0x100000001b3u;
    CHECK_EQ(r->outputs[3], hash);
}

static void check_forced(cl_platform_id platform, cl_device_id device)
{
    cl_call_record_refcl records[8];
    CHECK_EQ(force(platform, "clGetDeviceInfo", (cl_ulong)(cl_uint)-12345, 0),
             CL_SUCCESS);
    unsigned char value[16];
    memset(value, 0xEE, sizeof(value));
    size_t size = 0xEEEE;
    drain(platform);
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(value), value,
                                 &size);
    CHECK_EQ(err, -12345);
    CHECK_EQ(records_since(platform, records, 8), 1);
    CHECK_EQ(records[0].flags, CL_CALL_RECORD_FORCED_REFCL);
    CHECK(value[0] >= 0x40 && value[0] <= 0x7F); /* the pattern */
    CHECK_EQ(records[0].outputs[4], size);
    /* Used up: the next call is performed (a name does not fit 1 byte). */
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_NAME, 1, value, NULL),
             CL_INVALID_VALUE);
    /* errcode_ret of a create function. */
    CHECK_EQ(force(platform, "clCreateContext", 0, -4321), CL_SUCCESS);
    cl_int errcode = 0;
    CHECK(clCreateContext(NULL, 1, &device, NULL, NULL, &errcode) == NULL);
    CHECK_EQ(errcode, -4321);
    /* Cancelled before it fires. */
    CHECK_EQ(force(platform, "clGetDeviceInfo", 1, 0), CL_SUCCESS);
    CHECK_EQ(force(platform, NULL, 0, 0), CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, NULL, &size),
             CL_SUCCESS);
}

static void check_errors(cl_platform_id platform, cl_device_id device)
{
    cl_uint held;
    cl_call_record_refcl record;
    CHECK_EQ(journal(NULL, 0, 0, NULL, &held), CL_INVALID_PLATFORM);
    CHECK_EQ(journal((cl_platform_id)device, 0, 0, NULL, &held),
             CL_INVALID_PLATFORM);
    CHECK_EQ(journal(platform, 0, 0, &record, &held), CL_INVALID_VALUE);
    CHECK_EQ(journal(platform, 0, 1, NULL, NULL), CL_INVALID_VALUE);
    CHECK_EQ(force(platform, "clNoSuchFunction", 0, 0), CL_INVALID_VALUE);
    CHECK_EQ(force(platform, "clGetCallJournalREFCL", 0, 0),
             CL_INVALID_VALUE); /* not journaled */
    CHECK_EQ(force(NULL, "clGetDeviceInfo", 0, 0), CL_INVALID_PLATFORM);
}

/* The journal holds the last 512 calls: older ones leave a gap. */
static void check_ring(cl_platform_id platform)
{
    cl_call_record_refcl records[4];
    for (int i = 0; i < 600; i++)
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, NULL);
    cl_uint held = 0;
    CHECK_EQ(journal(platform, 0, 4, records, &held), CL_SUCCESS);
    CHECK_EQ(held, 512);
    cl_uint newer = 0;
    CHECK_EQ(journal(platform, records[0].sequence + 510, 4, records, &newer),
             CL_SUCCESS);
    CHECK_EQ(newer, 1);
    seen = records[0].sequence;
}

/* An event made by the extension function carries the queue's dispatch
 * data, and the calls on it are journaled like any other. */
static void check_marker(cl_platform_id platform, cl_device_id device)
{
    clEnqueueMarkerREFCL_fn marker = (clEnqueueMarkerREFCL_fn)(uintptr_t)
        clGetExtensionFunctionAddressForPlatform(platform,
                                                 "clEnqueueMarkerREFCL");
    CHECK(marker != NULL);
    cl_context context;
    cl_command_queue queue;
    if (!marker || !test_context_queue(device, 0, &context, &queue))
        return;
    cl_event event = NULL;
    CHECK_EQ(marker(queue, 0, NULL, &event), CL_SUCCESS);
    CHECK(((void **)event)[1] == ((void **)queue)[1]);
    CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    cl_call_record_refcl records[8];
    drain(platform);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(records_since(platform, records, 8), 1);
    CHECK_STR(records[0].function, "clReleaseEvent");
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
}

static void check_on(cl_platform_id platform, cl_device_id device)
{
    char extensions[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof(extensions),
                      extensions, NULL);
    CHECK(strstr(extensions, "cl_refcl_call_journal") != NULL);
    journal = (clGetCallJournalREFCL_fn)(uintptr_t)
        clGetExtensionFunctionAddressForPlatform(platform,
                                                 "clGetCallJournalREFCL");
    force = (clSetNextResultREFCL_fn)(uintptr_t)
        clGetExtensionFunctionAddressForPlatform(platform,
                                                 "clSetNextResultREFCL");
    CHECK(journal && force);
    if (!journal || !force)
        return;
    /* The REFCL ending stands for the suffix (REFCL_ICD_SUFFIX=RCJ). */
    CHECK(clGetExtensionFunctionAddressForPlatform(
              platform, "clGetCallJournalRCJ") == (void *)(uintptr_t)journal);
    CHECK(clGetExtensionFunctionAddressForPlatform(
              platform, "clGetCallJournalRCK") == NULL);
    check_record(platform, device);
    check_forced(platform, device);
    check_errors(platform, device);
    check_ring(platform);
    check_marker(platform, device);
}

static void check_off(cl_platform_id platform)
{
    char extensions[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof(extensions),
                      extensions, NULL);
    CHECK(strstr(extensions, "cl_refcl_call_journal") == NULL);
    static const char *const names[] = {
        "clGetCallJournalREFCL", "clSetNextResultREFCL",
        "clEnqueueMarkerREFCL"};
    for (size_t i = 0; i < 3; i++)
        CHECK(clGetExtensionFunctionAddressForPlatform(platform, names[i]) ==
              NULL);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    if (!test_first_device(&platform, &device))
        return 1;
    const char *mode = getenv("REFCL_TEST_JOURNAL");
    if (mode && !strcmp(mode, "on"))
        check_on(platform, device);
    else
        check_off(platform);
    return TEST_RESULT();
}

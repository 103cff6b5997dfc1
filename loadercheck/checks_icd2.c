/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cl_khr_icd 2.0 with several vendors at once: each ICD2 platform gets
 * its own dispatch data, once, and every object of the vendor carries it;
 * the table it points to still holds what the vendor gave the loader; a
 * second platform of a vendor and objects made by a vendor extension
 * function are routed; a classic vendor beside them keeps its own
 * dispatch.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "call.h"
#include "checks.h"

static struct call call;

/* The second word of every CL object: cl_khr_icd 2.0's dispatch data. */
static cl_ulong disp_data_of(const void *object)
{
    return (cl_ulong)(uintptr_t)((void *const *)object)[1];
}

static bool require_vendor(const struct session *session, int v,
                           struct outcome *outcome)
{
    if (vendor_usable(session, v))
        return true;
    outcome_set(outcome, STATUS_FAIL, "vendor %s is not listed",
                session->vendors[v].spec->tag);
    return false;
}

/* A loader that never looked at the vendor's cl_khr_icd 2.0 functions
 * dispatches classically, as cl_khr_icd 1.x loaders do: 2.0 is optional
 * for loaders, and such a vendor works with them. */
static bool loader_classic_for(const struct vendor *vendor)
{
    bool any_set = false;
    for (cl_uint p = 0; p < vendor->platform_count; p++)
        any_set = any_set || vendor->set_count[p];
    return !any_set && vendor->lookups == 0 &&
           disp_data_of(vendor->platforms[0]) == 0;
}

static bool require_icd2_loader(const struct vendor *vendor,
                                struct outcome *outcome)
{
    if (!loader_classic_for(vendor))
        return true;
    outcome_set(outcome, STATUS_SKIP,
                "not checked: the loader dispatches classically (it does "
                "not use cl_khr_icd 2.0)");
    return false;
}

/* The objects of the vendor's fixture carry the platform's data. */
static void objects_carry(const struct vendor *vendor, cl_ulong data,
                          struct outcome *outcome)
{
    for (int t = 0; t < OBJ_COUNT; t++) {
        const void *object = vendor->fixture.objects[t];
        if (object && disp_data_of(object) != data)
            outcome_fail(outcome, "its %s carries %#llx, not %#llx; ",
                         object_type_name((enum object_type)t),
                         (unsigned long long)disp_data_of(object),
                         (unsigned long long)data);
    }
}

void check_dispatch_data_set(struct session *session,
                             const struct check *check,
                             struct outcome *outcome)
{
    int v = check->vendor;
    if (!require_vendor(session, v, outcome))
        return;
    const struct vendor *vendor = &session->vendors[v];
    bool icd2 = vendor->spec->icd_version == 2;
    if (icd2 && !require_icd2_loader(vendor, outcome))
        return;
    for (cl_uint p = 0; p < vendor->platform_count; p++) {
        cl_uint expected = icd2 ? 1 : 0;
        if (vendor->set_count[p] != expected)
            outcome_fail(outcome, "platform %u: clIcdSetPlatformDispatch"
                                  "DataKHR called %u times, expected %u; ",
                         p, vendor->set_count[p], expected);
        cl_ulong data = disp_data_of(vendor->platforms[p]);
        if (icd2 && (!data || data != vendor->set_data[p]))
            outcome_fail(outcome, "platform %u carries %#llx, set %#llx; ",
                         p, (unsigned long long)data,
                         (unsigned long long)vendor->set_data[p]);
        if (!icd2 && data)
            outcome_fail(outcome, "classic platform %u carries dispatch "
                                  "data %#llx; ",
                         p, (unsigned long long)data);
    }
    objects_carry(vendor, disp_data_of(vendor->platforms[0]), outcome);
    if (outcome->status != STATUS_OK)
        return;
    if (icd2)
        outcome_set(outcome, STATUS_OK,
                    "dispatch data set once per platform (%u lookups "
                    "before), carried by every object",
                    vendor->lookups);
    else
        outcome_set(outcome, STATUS_OK,
                    "classic: no dispatch data, nothing set");
}

void check_dispatch_data_distinct(struct session *session,
                                  const struct check *check,
                                  struct outcome *outcome)
{
    (void)check;
    int shared_within = 0, managed = 0;
    for (int v = 0; v < session->scenario->vendor_count; v++) {
        const struct vendor *a = &session->vendors[v];
        if (a->spec->icd_version != 2 || !a->platform_count ||
            loader_classic_for(a))
            continue;
        managed++;
        for (cl_uint p = 0; p < a->platform_count; p++) {
            cl_ulong data = disp_data_of(a->platforms[p]);
            for (int w = v; w < session->scenario->vendor_count; w++) {
                const struct vendor *b = &session->vendors[w];
                for (cl_uint q = w == v ? p + 1 : 0;
                     b->spec->icd_version == 2 && q < b->platform_count &&
                     !loader_classic_for(b);
                     q++) {
                    if (disp_data_of(b->platforms[q]) != data)
                        continue;
                    if (w == v)
                        shared_within++;
                    else
                        outcome_fail(outcome, "vendors %s and %s share "
                                              "dispatch data %#llx; ",
                                     a->spec->tag, b->spec->tag,
                                     (unsigned long long)data);
                }
            }
        }
    }
    if (outcome->status == STATUS_OK && managed == 0)
        outcome_set(outcome, STATUS_SKIP,
                    "not checked: the loader dispatches classically (it does "
                    "not use cl_khr_icd 2.0)");
    else if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "each ICD2 vendor has its own dispatch data%s",
                    shared_within ? " (one table for the platforms of a "
                                    "vendor)"
                                  : ", each platform too");
}

/* Reads @p size bytes at @p address through /proc/self/mem: the loader
 * may have freed that memory, and a read through the kernel is not an
 * access the sanitizers or valgrind would stop the checker for. */
static bool memory_read(cl_ulong address, void *out, size_t size)
{
    int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = pread(fd, out, size, (off_t)address);
    close(fd);
    return n == (ssize_t)size;
}

/*
 * cl_khr_icd 2.0 leaves the dispatch data's layout to the loader; the
 * Khronos loader and ocl-icd both point it at a struct _cl_icd_dispatch
 * filled from clIcdGetFunctionAddressForPlatformKHR. If the first slots
 * hold what refcl offered, the table is read as one, and every slot must
 * still hold refcl's function: a loader that moved or freed the table
 * after handing it out leaves something else there.
 */
void check_dispatch_data_intact(struct session *session,
                                const struct check *check,
                                struct outcome *outcome)
{
    int v = check->vendor;
    if (!require_vendor(session, v, outcome))
        return;
    struct vendor *vendor = &session->vendors[v];
    if (!require_icd2_loader(vendor, outcome))
        return;
    void *(*lookup)(const char *) = (void *(*)(const char *))(uintptr_t)
        dlsym_vendor(vendor, "clGetExtensionFunctionAddress");
    clIcdGetFunctionAddressForPlatformKHR_fn offered =
        (clIcdGetFunctionAddressForPlatformKHR_fn)(uintptr_t)lookup(
            "clIcdGetFunctionAddressForPlatformKHR");
    void *table[256];
    size_t count;
    const struct entry *entries = entries_all(&count);
    int slots = 0;
    for (size_t i = 0; i < count; i++)
        if (entries[i].slot >= slots)
            slots = entries[i].slot + 1;
    if (!offered ||
        !memory_read(disp_data_of(vendor->platforms[0]), table,
                     sizeof(void *) * (size_t)slots)) {
        outcome_set(outcome, STATUS_FAIL, "cannot read the dispatch data");
        return;
    }
    int same = 0, differ = 0, first = -1;
    for (size_t i = 0; i < count; i++) {
        int slot = entries[i].slot;
        if (slot < 0)
            continue;
        void *expected = offered(vendor->platforms[0], entries[i].name);
        if (table[slot] == expected)
            same++;
        else if (differ++ == 0)
            first = (int)i;
    }
    journals_drain(session);
    if (same == 0)
        outcome_set(outcome, STATUS_SKIP,
                    "not checked: the loader's dispatch data is not a "
                    "dispatch table");
    else if (differ)
        outcome_set(outcome, STATUS_FAIL,
                    "%d slots no longer hold refcl's function (the first, "
                    "%s, holds %p): the table was moved or freed after it "
                    "was handed out",
                    differ, entries[first].name, table[entries[first].slot]);
    else
        outcome_set(outcome, STATUS_OK,
                    "all %d slots still hold refcl's functions", same);
}

/* A device of the vendor's second platform, called through the loader,
 * reaches that platform. */
void check_second_platform(struct session *session, const struct check *check,
                           struct outcome *outcome)
{
    int v = check->vendor;
    if (!require_vendor(session, v, outcome))
        return;
    struct vendor *vendor = &session->vendors[v];
    if (vendor->platform_count < 2 || !vendor->listed[1]) {
        outcome_set(outcome, STATUS_FAIL,
                    "the second platform of vendor %s is not listed",
                    vendor->spec->tag);
        return;
    }
    cl_device_id device = NULL;
    vendor_table(vendor)->clGetDeviceIDs(vendor->platforms[1],
                                         CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    const struct entry *entry = entry_named("clGetDeviceInfo");
    call_prepare(&call, session, entry, v, PASS_REAL, 0, NULL);
    call.args[0] = (cl_ulong)(uintptr_t)device;
    call_invoke(&call, session, loader_symbol(session, entry->name));
    call_compare(&call, session, v, vendor->platforms[1], outcome);
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "clGetDeviceInfo on its device reached platform 1 of "
                    "vendor %s",
                    vendor->spec->tag);
}

/* An event made by refcl's clEnqueueMarkerREFCL, which no loader knows:
 * a call on it must still reach the vendor. */
void check_extension_object(struct session *session, const struct check *check,
                            struct outcome *outcome)
{
    int v = check->vendor;
    if (!require_vendor(session, v, outcome))
        return;
    struct vendor *vendor = &session->vendors[v];
    clEnqueueMarkerREFCL_fn marker = (clEnqueueMarkerREFCL_fn)(uintptr_t)
        loader_function(session, v, "clEnqueueMarkerREFCL");
    cl_command_queue queue = vendor->fixture.objects[OBJ_QUEUE];
    cl_event event = NULL;
    cl_int err = marker && queue ? marker(queue, 0, NULL, &event)
                                 : CL_INVALID_OPERATION;
    if (err != CL_SUCCESS || !event) {
        outcome_set(outcome, STATUS_FAIL, "clEnqueueMarkerREFCL: %s",
                    marker ? code_name(err) : "not offered");
        return;
    }
    const struct entry *entry = entry_named("clGetEventInfo");
    call_prepare(&call, session, entry, v, PASS_REAL, 0, NULL);
    call.args[0] = (cl_ulong)(uintptr_t)event;
    call_invoke(&call, session, loader_symbol(session, entry->name));
    call_compare(&call, session, v, vendor->platforms[0], outcome);
    bool carries = disp_data_of(event) != 0;
    vendor_table(vendor)->clReleaseEvent(event);
    journals_drain(session);
    if (outcome->status == STATUS_OK)
        outcome_set(outcome, STATUS_OK,
                    "clGetEventInfo on its event reached vendor %s%s",
                    vendor->spec->tag,
                    carries ? " (the event carries the dispatch data)" : "");
}

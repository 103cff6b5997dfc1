/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Setting a child process up for one scenario: the environment that points
 * the loader at the scenario's vendors and nothing else, the loader itself,
 * and each vendor as the loader loaded it, reached directly for its
 * platforms, its journal and its objects (fixture.c).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

/* Variables that would make a loader look elsewhere than the scenario's
 * vendors, pick a platform or load a layer. */
static const char *const foreign_variables[] = {
    "OCL_ICD_FILENAMES",      "OPENCL_VENDOR_PATH",
    "OPENCL_LAYERS",          "OCL_ICD_DEFAULT_PLATFORM",
    "OCL_ICD_PLATFORM_SORT",  "OCL_ICD_ASSUME_ICD_EXTENSION",
    "REFCL_PLATFORMS",        "REFCL_PLATFORM_NAME",
    "REFCL_ICD_SUFFIX",       "REFCL_ICD_VERSION",
    "REFCL_FAULT",            "REFCL_JOURNAL",
};

static void environment_set(const char *dir)
{
    char path[PATH_MAX];
    for (size_t i = 0;
         i < sizeof(foreign_variables) / sizeof(foreign_variables[0]); i++)
        unsetenv(foreign_variables[i]);
    snprintf(path, sizeof(path), "%s/vendors", dir);
    setenv("OCL_ICD_VENDORS", path, 1);
    snprintf(path, sizeof(path), "%s/layers", dir);
    setenv("OPENCL_LAYER_PATH", path, 1);
    snprintf(path, sizeof(path), "%s/instances.conf", dir);
    setenv("REFCL_INSTANCES", path, 1);
    /* refcl's build directories too: one a killed child leaves is then
     * removed with the run's directory. */
    setenv("TMPDIR", dir, 1);
}

void *loader_symbol(const struct session *session, const char *name)
{
    return dlsym(session->loader, name);
}

void *loader_function(const struct session *session, int v,
                      const char *name)
{
    void *address = loader_symbol(session, name);
    if (address)
        return address;
    cl_api_clGetExtensionFunctionAddressForPlatform lookup = (void *)(uintptr_t)
        loader_symbol(session, "clGetExtensionFunctionAddressForPlatform");
    if (!lookup || v < 0)
        return NULL;
    return lookup(session->vendors[v].platforms[0], name);
}

int vendor_of_address(const struct session *session, const void *address)
{
    Dl_info info;
    if (!address || !dladdr(address, &info) || !info.dli_fname)
        return -1;
    for (int v = 0; v < session->scenario->vendor_count; v++)
        if (!strcmp(info.dli_fname, session->vendors[v].library))
            return v;
    return -1;
}

int vendor_of_platform(const struct session *session,
                       cl_platform_id platform)
{
    for (int v = 0; v < session->scenario->vendor_count; v++)
        for (cl_uint p = 0; p < session->vendors[v].platform_count; p++)
            if (platform && session->vendors[v].platforms[p] == platform)
                return v;
    return -1;
}

bool vendor_usable(const struct session *session, int v)
{
    const struct vendor *vendor = &session->vendors[v];
    return vendor->handle && vendor->platform_count && vendor->listed[0];
}

void *dlsym_vendor(const struct vendor *vendor, const char *name)
{
    return vendor->handle ? dlsym(vendor->handle, name) : NULL;
}

const struct _cl_icd_dispatch *vendor_table(const struct vendor *vendor)
{
    return *(const struct _cl_icd_dispatch *const *)vendor->platforms[0];
}

cl_uint journal_read(struct vendor *vendor, cl_call_record_refcl *records,
                     cl_uint max)
{
    cl_uint held = 0;
    if (!vendor->journal || !vendor->platform_count ||
        vendor->journal(vendor->platforms[0], vendor->seen, max, records,
                        &held) != CL_SUCCESS)
        return 0;
    cl_uint read = held < max ? held : max;
    if (read)
        vendor->seen = records[read - 1].sequence;
    return held;
}

void journals_drain(struct session *session)
{
    cl_call_record_refcl records[32];
    for (int v = 0; v < session->scenario->vendor_count; v++)
        while (journal_read(&session->vendors[v], records, 32) > 32)
            ;
}

void vendor_note_start(struct session *session, int v)
{
    struct vendor *vendor = &session->vendors[v];
    static cl_call_record_refcl records[512];
    cl_uint held = journal_read(vendor, records, 512);
    vendor->start_records = held;
    for (cl_uint i = 0; i < held && i < 512; i++) {
        const cl_call_record_refcl *record = &records[i];
        if (!strcmp(record->function, "clIcdGetFunctionAddressForPlatformKHR"))
            vendor->lookups++;
        if (strcmp(record->function, "clIcdSetPlatformDispatchDataKHR"))
            continue;
        for (cl_uint p = 0; p < vendor->platform_count; p++)
            if (record->args[0] == (cl_ulong)(uintptr_t)vendor->platforms[p]) {
                vendor->set_count[p]++;
                vendor->set_data[p] = record->args[1];
            }
    }
}

/* The platforms the loader lists. */
static void platforms_list(struct session *session)
{
    cl_api_clGetPlatformIDs get_platforms = (void *)(uintptr_t)
        loader_symbol(session, "clGetPlatformIDs");
    cl_uint count = 0;
    session->listed_status = get_platforms
                                 ? get_platforms(0, NULL, &count)
                                 : CL_INVALID_OPERATION;
    if (session->listed_status != CL_SUCCESS)
        return;
    if (count > MAX_LISTED)
        count = MAX_LISTED;
    if (count)
        session->listed_status =
            get_platforms(count, session->listed, NULL);
    session->listed_count = count;
}

/* The vendor's library as the loader loaded it (RTLD_NOLOAD: never load
 * it here), its own platforms and its journal's functions. */
static void vendor_find(struct session *session, int v, const char *dir)
{
    struct vendor *vendor = &session->vendors[v];
    vendor->spec = &session->scenario->vendors[v];
    snprintf(vendor->library, sizeof(vendor->library),
             "%s/lib/librefcl-%s.so", dir, vendor->spec->tag);
    vendor->handle = dlopen(vendor->library, RTLD_NOW | RTLD_NOLOAD);
    if (!vendor->handle)
        return;
    cl_api_clGetPlatformIDs get_platforms = (void *)(uintptr_t)dlsym(
        vendor->handle, "clIcdGetPlatformIDsKHR");
    void *(*lookup)(const char *) = (void *(*)(const char *))(uintptr_t)
        dlsym(vendor->handle, "clGetExtensionFunctionAddress");
    cl_uint count = 0;
    if (!get_platforms ||
        get_platforms(MAX_VENDOR_PLATFORMS, vendor->platforms, &count) !=
            CL_SUCCESS)
        count = 0;
    vendor->platform_count = count < MAX_VENDOR_PLATFORMS
                                 ? count
                                 : MAX_VENDOR_PLATFORMS;
    for (cl_uint p = 0; p < vendor->platform_count; p++)
        for (cl_uint i = 0; i < session->listed_count; i++)
            if (session->listed[i] == vendor->platforms[p])
                vendor->listed[p] = true;
    if (lookup) {
        vendor->journal = (clGetCallJournalREFCL_fn)(uintptr_t)lookup(
            "clGetCallJournalREFCL");
        vendor->force = (clSetNextResultREFCL_fn)(uintptr_t)lookup(
            "clSetNextResultREFCL");
    }
}

bool session_open(struct session *session, const struct scenario *scenario,
                  const char *dir, const char *loader_path, char *why,
                  size_t why_size)
{
    memset(session, 0, sizeof(*session));
    session->scenario = scenario;
    environment_set(dir);
    session->loader = dlopen(loader_path, RTLD_NOW | RTLD_LOCAL);
    if (!session->loader) {
        snprintf(why, why_size, "cannot load the loader: %s", dlerror());
        return false;
    }
    platforms_list(session);
    for (int v = 0; v < scenario->vendor_count; v++) {
        vendor_find(session, v, dir);
        vendor_note_start(session, v);
    }
    for (int v = 0; v < scenario->vendor_count; v++)
        if (session->vendors[v].platform_count)
            fixture_build(session, v);
    journals_drain(session);
    return true;
}

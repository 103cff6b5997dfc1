/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loaders/probe: what an application sees of refcl through whichever ICD
 * loader it is linked with, in one line that tests/loaders/faults.sh
 * compares with the recorded reaction of each loader:
 *   platforms=<n> [name=<first platform's name>] [devices=<n>]
 *   [dispatch=<loader-managed|classic>] [context=<ok|error>]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &count);
    printf("platforms=%u", err == CL_SUCCESS ? count : 0);
    cl_platform_id platform;
    if (err != CL_SUCCESS || count == 0 ||
        clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS) {
        printf("\n");
        return 0;
    }
    char name[64] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, NULL);
    cl_device_id device;
    cl_uint devices = 0;
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &devices);
    printf(" name=%s devices=%u", name, err == CL_SUCCESS ? devices : 0);
    if (err == CL_SUCCESS) {
        void *disp_data = ((void **)device)[1];
        cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL,
                                             &err);
        printf(" dispatch=%s context=%s",
               disp_data ? "loader-managed" : "classic",
               context && err == CL_SUCCESS ? "ok" : "error");
        if (context)
            clReleaseContext(context);
    }
    printf("\n");
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every slot of struct _cl_icd_dispatch, in table order (Khronos cl_icd.h;
 * the table only ever grows at its end). One list drives the dispatch table
 * and the name->function table, so the two can never disagree.
 *
 *   X(name)  a slot typed cl_api_<name>, filled by refcl_<name> (e.g.
 *            refcl_clGetDeviceInfo), whose type the compiler checks.
 *   XV(name) a slot typed void * off Windows (Direct3D / DX9 sharing).
 *   XT(name) a slot that holds CL_ICD2_TAG_KHR in an ICD2 table.
 */
#ifndef REFCL_ENTRIES_H
#define REFCL_ENTRIES_H

#define REFCL_DISPATCH_ENTRIES(X, XV, XT) \
    XT(clGetPlatformIDs) \
    X(clGetPlatformInfo) \
    X(clGetDeviceIDs) \
    X(clGetDeviceInfo) \
    X(clCreateContext) \
    X(clCreateContextFromType) \
    X(clRetainContext) \
    X(clReleaseContext) \
    X(clGetContextInfo) \
    X(clCreateCommandQueue) \
    X(clRetainCommandQueue) \
    X(clReleaseCommandQueue) \
    X(clGetCommandQueueInfo) \
    X(clSetCommandQueueProperty) \
    X(clCreateBuffer) \
    X(clCreateImage2D) \
    X(clCreateImage3D) \
    X(clRetainMemObject) \
    X(clReleaseMemObject) \
    X(clGetSupportedImageFormats) \
    X(clGetMemObjectInfo) \
    X(clGetImageInfo) \
    X(clCreateSampler) \
    X(clRetainSampler) \
    X(clReleaseSampler) \
    X(clGetSamplerInfo) \
    X(clCreateProgramWithSource) \
    X(clCreateProgramWithBinary) \
    X(clRetainProgram) \
    X(clReleaseProgram) \
    X(clBuildProgram) \
    XT(clUnloadCompiler) \
    X(clGetProgramInfo) \
    X(clGetProgramBuildInfo) \
    X(clCreateKernel) \
    X(clCreateKernelsInProgram) \
    X(clRetainKernel) \
    X(clReleaseKernel) \
    X(clSetKernelArg) \
    X(clGetKernelInfo) \
    X(clGetKernelWorkGroupInfo) \
    X(clWaitForEvents) \
    X(clGetEventInfo) \
    X(clRetainEvent) \
    X(clReleaseEvent) \
    X(clGetEventProfilingInfo) \
    X(clFlush) \
    X(clFinish) \
    X(clEnqueueReadBuffer) \
    X(clEnqueueWriteBuffer) \
    X(clEnqueueCopyBuffer) \
    X(clEnqueueReadImage) \
    X(clEnqueueWriteImage) \
    X(clEnqueueCopyImage) \
    X(clEnqueueCopyImageToBuffer) \
    X(clEnqueueCopyBufferToImage) \
    X(clEnqueueMapBuffer) \
    X(clEnqueueMapImage) \
    X(clEnqueueUnmapMemObject) \
    X(clEnqueueNDRangeKernel) \
    X(clEnqueueTask) \
    X(clEnqueueNativeKernel) \
    X(clEnqueueMarker) \
    X(clEnqueueWaitForEvents) \
    X(clEnqueueBarrier) \
    X(clGetExtensionFunctionAddress) \
    X(clCreateFromGLBuffer) \
    X(clCreateFromGLTexture2D) \
    X(clCreateFromGLTexture3D) \
    X(clCreateFromGLRenderbuffer) \
    X(clGetGLObjectInfo) \
    X(clGetGLTextureInfo) \
    X(clEnqueueAcquireGLObjects) \
    X(clEnqueueReleaseGLObjects) \
    X(clGetGLContextInfoKHR) \
    XV(clGetDeviceIDsFromD3D10KHR) \
    XV(clCreateFromD3D10BufferKHR) \
    XV(clCreateFromD3D10Texture2DKHR) \
    XV(clCreateFromD3D10Texture3DKHR) \
    XV(clEnqueueAcquireD3D10ObjectsKHR) \
    XV(clEnqueueReleaseD3D10ObjectsKHR) \
    X(clSetEventCallback) \
    X(clCreateSubBuffer) \
    X(clSetMemObjectDestructorCallback) \
    X(clCreateUserEvent) \
    X(clSetUserEventStatus) \
    X(clEnqueueReadBufferRect) \
    X(clEnqueueWriteBufferRect) \
    X(clEnqueueCopyBufferRect) \
    X(clCreateSubDevicesEXT) \
    X(clRetainDeviceEXT) \
    X(clReleaseDeviceEXT) \
    X(clCreateEventFromGLsyncKHR) \
    X(clCreateSubDevices) \
    X(clRetainDevice) \
    X(clReleaseDevice) \
    X(clCreateImage) \
    X(clCreateProgramWithBuiltInKernels) \
    X(clCompileProgram) \
    X(clLinkProgram) \
    X(clUnloadPlatformCompiler) \
    X(clGetKernelArgInfo) \
    X(clEnqueueFillBuffer) \
    X(clEnqueueFillImage) \
    X(clEnqueueMigrateMemObjects) \
    X(clEnqueueMarkerWithWaitList) \
    X(clEnqueueBarrierWithWaitList) \
    X(clGetExtensionFunctionAddressForPlatform) \
    X(clCreateFromGLTexture) \
    XV(clGetDeviceIDsFromD3D11KHR) \
    XV(clCreateFromD3D11BufferKHR) \
    XV(clCreateFromD3D11Texture2DKHR) \
    XV(clCreateFromD3D11Texture3DKHR) \
    XV(clCreateFromDX9MediaSurfaceKHR) \
    XV(clEnqueueAcquireD3D11ObjectsKHR) \
    XV(clEnqueueReleaseD3D11ObjectsKHR) \
    XV(clGetDeviceIDsFromDX9MediaAdapterKHR) \
    XV(clEnqueueAcquireDX9MediaSurfacesKHR) \
    XV(clEnqueueReleaseDX9MediaSurfacesKHR) \
    X(clCreateFromEGLImageKHR) \
    X(clEnqueueAcquireEGLObjectsKHR) \
    X(clEnqueueReleaseEGLObjectsKHR) \
    X(clCreateEventFromEGLSyncKHR) \
    X(clCreateCommandQueueWithProperties) \
    X(clCreatePipe) \
    X(clGetPipeInfo) \
    X(clSVMAlloc) \
    X(clSVMFree) \
    X(clEnqueueSVMFree) \
    X(clEnqueueSVMMemcpy) \
    X(clEnqueueSVMMemFill) \
    X(clEnqueueSVMMap) \
    X(clEnqueueSVMUnmap) \
    X(clCreateSamplerWithProperties) \
    X(clSetKernelArgSVMPointer) \
    X(clSetKernelExecInfo) \
    X(clGetKernelSubGroupInfoKHR) \
    X(clCloneKernel) \
    X(clCreateProgramWithIL) \
    X(clEnqueueSVMMigrateMem) \
    X(clGetDeviceAndHostTimer) \
    X(clGetHostTimer) \
    X(clGetKernelSubGroupInfo) \
    X(clSetDefaultDeviceCommandQueue) \
    X(clSetProgramReleaseCallback) \
    X(clSetProgramSpecializationConstant) \
    X(clCreateBufferWithProperties) \
    X(clCreateImageWithProperties) \
    X(clSetContextDestructorCallback)

#endif /* REFCL_ENTRIES_H */

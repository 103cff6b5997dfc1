/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context/threads: contexts created, retained, queried and released from
 * many threads at once (run under ThreadSanitizer by scripts/test.sh).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"

#define THREADS 8
#define ROUNDS 500

static cl_device_id device;
static atomic_int errors;
static atomic_int destructor_calls;

static void CL_CALLBACK count_destructor(cl_context context, void *user_data)
{
    (void)context;
    (void)user_data;
    atomic_fetch_add(&destructor_calls, 1);
}

/* One context shared by all threads: retain, query, register, release. */
static cl_context shared;

static void *churn(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        cl_int err;
        cl_context own = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        cl_uint count = 0;
        if (err != CL_SUCCESS ||
            clRetainContext(shared) != CL_SUCCESS ||
            clGetContextInfo(own, CL_CONTEXT_NUM_DEVICES, sizeof(count),
                             &count, NULL) != CL_SUCCESS ||
            count != 1 ||
            clSetContextDestructorCallback(shared, count_destructor, NULL) !=
                CL_SUCCESS ||
            clReleaseContext(shared) != CL_SUCCESS ||
            clReleaseContext(own) != CL_SUCCESS)
            atomic_fetch_add(&errors, 1);
    }
    return NULL;
}

int main(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    cl_int err;
    shared = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, churn, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    CHECK_EQ(atomic_load(&errors), 0);
    cl_uint refcount = 0;
    CHECK_EQ(clGetContextInfo(shared, CL_CONTEXT_REFERENCE_COUNT,
                              sizeof(refcount), &refcount, NULL),
             CL_SUCCESS);
    CHECK_EQ(refcount, 1);
    CHECK_EQ(atomic_load(&destructor_calls), 0);
    CHECK_EQ(clReleaseContext(shared), CL_SUCCESS);
    CHECK_EQ(atomic_load(&destructor_calls), THREADS * ROUNDS);
    return TEST_RESULT();
}

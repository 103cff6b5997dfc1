/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/native: clEnqueueNativeKernel — every error the specification
 * lists, the argument block copied at enqueue, the event, queue order, a
 * queue released with native kernels pending — and where commands run:
 * sched_getcpu() and sched_getaffinity() inside native kernels show that
 * the commands of an EQUALLY 1 or affinity-domain sub-device run on the
 * sub-device's processing units and nowhere else.
 *
 * REFCL_TEST_BINDING says what binding to expect (tests/kernel/
 * CMakeLists.txt registers each): "bound" (the host; skipped, 77, where
 * this process may not bind threads), "off" (REFCL_BIND=0: threads keep
 * the process's affinity, nothing is said), "impossible" (a synthetic
 * topology: one line on stderr, work runs unbound) and "fails" (a
 * topology that claims to be this machine with units it does not have:
 * one line on stderr, work runs unbound).
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "CL/cl_ext_refcl.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* ---- what a native kernel sees ------------------------------------------ */

/* Where a native kernel ran. */
struct placement {
    int cpu;          /* sched_getcpu() */
    cpu_set_t mask;   /* sched_getaffinity() */
};

/* The argument block of record_placement: copied by refcl. */
struct place_args {
    struct placement *out;
};

static void CL_CALLBACK record_placement(void *args)
{
    struct place_args *a = args;
    a->out->cpu = sched_getcpu();
    CPU_ZERO(&a->out->mask);
    sched_getaffinity(0, sizeof(a->out->mask), &a->out->mask);
}

/* The block of record_args: what the function saw. */
struct seen_args {
    int value;
    char text[13];
    int *seen_value;
    const void **seen_at;
};

static void CL_CALLBACK record_args(void *args)
{
    struct seen_args *a = args;
    *a->seen_value = a->value;
    *a->seen_at = args;
}

static void CL_CALLBACK no_args(void *args)
{
    (void)args;
}

/* Appends its number to a log: queue order. */
struct order_args {
    int number;
    int *log;
    int *count;
};

static void CL_CALLBACK log_number(void *args)
{
    struct order_args *a = args;
    a->log[(*a->count)++] = a->number;
}

/* ---- errors ----------------------------------------------------------------- */

static void check_errors(void)
{
    int block = 7;
    const void *loc[1] = {&block};
    cl_mem mems[1] = {NULL};
    cl_event sentinel = (cl_event)&block, event = sentinel;
#define NATIVE(q, fn, a, cb, n, m, l)                                       \
    clEnqueueNativeKernel(q, fn, a, cb, n, m, l, 0, NULL, &event)

    /* CL_INVALID_VALUE "if user_func is NULL". */
    CHECK_EQ(NATIVE(queue, NULL, &block, sizeof(block), 0, NULL, NULL),
             CL_INVALID_VALUE);
    /* "if args is a NULL value and cb_args > 0, or if args is a NULL value
     * and num_mem_objects > 0". */
    CHECK_EQ(NATIVE(queue, no_args, NULL, 4, 0, NULL, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(NATIVE(queue, no_args, NULL, 0, 1, mems, loc), CL_INVALID_VALUE);
    /* "if args is not NULL and cb_args is 0". */
    CHECK_EQ(NATIVE(queue, no_args, &block, 0, 0, NULL, NULL),
             CL_INVALID_VALUE);
    /* "if num_mem_objects > 0 and mem_list or args_mem_loc are NULL". */
    CHECK_EQ(NATIVE(queue, no_args, &block, sizeof(block), 1, NULL, loc),
             CL_INVALID_VALUE);
    CHECK_EQ(NATIVE(queue, no_args, &block, sizeof(block), 1, mems, NULL),
             CL_INVALID_VALUE);
    /* "if num_mem_objects = 0 and mem_list or args_mem_loc are not
     * NULL". */
    CHECK_EQ(NATIVE(queue, no_args, &block, sizeof(block), 0, mems, NULL),
             CL_INVALID_VALUE);
    CHECK_EQ(NATIVE(queue, no_args, &block, sizeof(block), 0, NULL, loc),
             CL_INVALID_VALUE);
    /* refcl: a location outside the block, or a block too small to hold a
     * handle, is not one of "appropriate locations that args points to". */
    void *handles[2] = {NULL, NULL};
    const void *outside[1] = {&handles[1] + 1};
    const void *straddling[1] = {(const char *)&handles[1] + 1};
    const void *inside[1] = {&handles[1]};
    CHECK_EQ(NATIVE(queue, no_args, handles, sizeof(handles), 1, mems,
                    outside),
             CL_INVALID_VALUE);
    CHECK_EQ(NATIVE(queue, no_args, handles, sizeof(handles), 1, mems,
                    straddling),
             CL_INVALID_VALUE);
    CHECK_EQ(NATIVE(queue, no_args, &block, sizeof(block), 1, mems, loc),
             CL_INVALID_VALUE);
    /* CL_INVALID_MEM_OBJECT "if one or more memory objects specified in
     * mem_list are not valid or are not buffer objects". */
    cl_mem not_mem[1] = {(cl_mem)context};
    CHECK_EQ(NATIVE(queue, no_args, handles, sizeof(handles), 1, not_mem,
                    inside),
             CL_INVALID_MEM_OBJECT);
    CHECK(event == sentinel); /* "no event will be created" */

    /* A NULL entry of mem_list stands for NULL ("or NULL"). */
    handles[1] = &block;
    CHECK_EQ(NATIVE(queue, no_args, handles, sizeof(handles), 1, mems,
                    inside),
             CL_SUCCESS);
    CHECK(event != sentinel);
    CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    event = sentinel;

    /* The wait list: CL_INVALID_EVENT_WAIT_LIST, then CL_INVALID_CONTEXT
     * "if context associated with command_queue and events in
     * event_wait_list are not the same". */
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    cl_event bad[1] = {(cl_event)context};
    CHECK_EQ(clEnqueueNativeKernel(queue, no_args, NULL, 0, 0, NULL, NULL, 1,
                                   NULL, &event),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueNativeKernel(queue, no_args, NULL, 0, 0, NULL, NULL, 0,
                                   bad, &event),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueNativeKernel(queue, no_args, NULL, 0, 0, NULL, NULL, 1,
                                   bad, &event),
             CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(clEnqueueNativeKernel(queue, no_args, NULL, 0, 0, NULL, NULL, 1,
                                   &foreign, &event),
             CL_INVALID_CONTEXT);
    CHECK(event == sentinel);
    CHECK_EQ(clReleaseEvent(foreign), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(other), CL_SUCCESS);

    /* CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid host
     * command-queue", before anything else. */
    cl_command_queue released;
    const cl_queue_properties none[] = {0};
    released = clCreateCommandQueueWithProperties(context, device, none, &err);
    CHECK_EQ(clReleaseCommandQueue(released), CL_SUCCESS);
    void *bad_queues[6];
    int n = test_bad_handles(bad_queues, released, context, device);
    for (int i = 0; i < n; i++)
        CHECK_EQ(NATIVE(bad_queues[i], NULL, NULL, 4, 0, mems, NULL),
                 CL_INVALID_COMMAND_QUEUE);
    CHECK(event == sentinel);
#undef NATIVE
}

/* ---- the argument block ----------------------------------------------------- */

/* "The data pointed to by args and cb_args bytes in size will be copied":
 * the function sees the block as it was at enqueue, at another address,
 * even when the application changes its own before the command runs. */
static void check_args_copied(void)
{
    cl_int err;
    int seen_value = 0;
    const void *seen_at = NULL;
    struct seen_args args = {41, "hello, world", &seen_value, &seen_at};
    cl_event gate = clCreateUserEvent(context, &err);
    cl_event event = NULL;
    CHECK_EQ(clEnqueueNativeKernel(queue, record_args, &args, sizeof(args), 0,
                                   NULL, NULL, 1, &gate, &event),
             CL_SUCCESS);
    args.value = 99; /* "the memory region pointed to by args can be
                        reused by the application" */
    cl_int status = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_QUEUED);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
    CHECK_EQ(seen_value, 41);
    CHECK(seen_at != NULL && seen_at != (const void *)&args);

    cl_command_type type = 0;
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                            NULL),
             CL_SUCCESS);
    CHECK_EQ(type, CL_COMMAND_NATIVE_KERNEL);
    CHECK_EQ(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof(status), &status, NULL),
             CL_SUCCESS);
    CHECK_EQ(status, CL_COMPLETE);
    CHECK_EQ(clReleaseEvent(event), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);

    /* No block at all: the function gets NULL. */
    CHECK_EQ(clEnqueueNativeKernel(queue, no_args, NULL, 0, 0, NULL, NULL, 0,
                                   NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
}

/* An in-order queue runs its native kernels in order, on one thread. */
static void check_order(void)
{
    enum { COUNT = 200 };
    int log[COUNT], count = 0;
    for (int i = 0; i < COUNT; i++) {
        struct order_args args = {i, log, &count};
        CHECK_EQ(clEnqueueNativeKernel(queue, log_number, &args, sizeof(args),
                                       0, NULL, NULL, 0, NULL, NULL),
                 CL_SUCCESS);
    }
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    CHECK_EQ(count, COUNT);
    for (int i = 0; i < COUNT && i < count; i++)
        CHECK_EQ(log[i], i);
}

/* "the implicit flush" of a released queue: its pending native kernels
 * still run, once what they wait for completes. */
static void check_released_queue_finishes(void)
{
    enum { COUNT = 20 };
    cl_int err;
    const cl_queue_properties none[] = {0};
    cl_command_queue q =
        clCreateCommandQueueWithProperties(context, device, none, &err);
    cl_event gate = clCreateUserEvent(context, &err);
    int log[COUNT], count = 0;
    cl_event last = NULL;
    for (int i = 0; i < COUNT; i++) {
        struct order_args args = {i, log, &count};
        CHECK_EQ(clEnqueueNativeKernel(q, log_number, &args, sizeof(args), 0,
                                       NULL, NULL, i == 0, i == 0 ? &gate
                                                                  : NULL,
                                       i == COUNT - 1 ? &last : NULL),
                 CL_SUCCESS);
    }
    CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
    CHECK_EQ(count, 0);
    CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    CHECK_EQ(clWaitForEvents(1, &last), CL_SUCCESS);
    CHECK_EQ(count, COUNT);
    for (int i = 0; i < COUNT && i < count; i++)
        CHECK_EQ(log[i], i);
    CHECK_EQ(clReleaseEvent(last), CL_SUCCESS);
    CHECK_EQ(clReleaseEvent(gate), CL_SUCCESS);
}

/* ---- where commands run ---------------------------------------------------- */

/* The CPUs of a cpuset list ("0-3,8"), CL_DEVICE_CPUSET_REFCL's syntax. */
static bool parse_cpus(const char *text, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*text) {
        char *end;
        long first = strtol(text, &end, 10), last = first;
        if (end == text || first < 0)
            return false;
        if (*end == '-') {
            text = end + 1;
            last = strtol(text, &end, 10);
            if (end == text || last < first)
                return false;
        }
        for (long cpu = first; cpu <= last && cpu < CPU_SETSIZE; cpu++)
            CPU_SET((int)cpu, set);
        text = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return true;
}

static bool device_cpus(cl_device_id d, cpu_set_t *set)
{
    char text[4096];
    return clGetDeviceInfo(d, CL_DEVICE_CPUSET_REFCL, sizeof(text), text,
                           NULL) == CL_SUCCESS &&
           parse_cpus(text, set);
}

/* Runs record_placement on a new queue of @p d (in a context of its own)
 * @p times, and the placement of each into @p out. */
static void place(cl_device_id d, struct placement *out, int times)
{
    cl_context c;
    cl_command_queue q;
    if (!test_context_queue(d, 0, &c, &q)) {
        CHECK(0);
        return;
    }
    for (int i = 0; i < times; i++) {
        struct place_args args = {&out[i]};
        CHECK_EQ(clEnqueueNativeKernel(q, record_placement, &args,
                                       sizeof(args), 0, NULL, NULL, 0, NULL,
                                       NULL),
                 CL_SUCCESS);
    }
    CHECK_EQ(clFinish(q), CL_SUCCESS);
    CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

static const char *binding(void)
{
    const char *mode = getenv("REFCL_TEST_BINDING");
    return mode ? mode : "bound";
}

/* Every native kernel of each sub-device ran inside its cpuset, with
 * exactly that affinity when refcl binds, the process's otherwise. */
static void check_placed(const cl_device_id *subs, cl_uint count,
                         const char *scheme)
{
    enum { TIMES = 8 };
    bool bound = strcmp(binding(), "bound") == 0;
    cpu_set_t process;
    sched_getaffinity(0, sizeof(process), &process);
    for (cl_uint s = 0; s < count; s++) {
        cpu_set_t own;
        char text[256] = "";
        clGetDeviceInfo(subs[s], CL_DEVICE_CPUSET_REFCL, sizeof(text), text,
                        NULL);
        CHECK(device_cpus(subs[s], &own));
        struct placement at[TIMES];
        place(subs[s], at, TIMES);
        for (int i = 0; i < TIMES; i++) {
            const cpu_set_t *expect = bound ? &own : &process;
            if (!CPU_EQUAL(&at[i].mask, expect))
                fprintf(stderr, "%s sub-device %u: affinity of run %d is "
                                "not the %s cpuset\n",
                        scheme, s, i, bound ? "sub-device's" : "process's");
            CHECK(CPU_EQUAL(&at[i].mask, expect));
            CHECK(at[i].cpu >= 0 && CPU_ISSET(at[i].cpu, &at[i].mask));
            if (i == 0)
                printf("%s sub-device %u: cpuset %s, native kernel on CPU "
                       "%d, %d CPUs in its affinity\n",
                       scheme, s, text, at[i].cpu, CPU_COUNT(&at[i].mask));
        }
    }
}

static void release_all(cl_device_id *subs, cl_uint count)
{
    for (cl_uint i = 0; i < count; i++)
        CHECK_EQ(clReleaseDevice(subs[i]), CL_SUCCESS);
}

/* EQUALLY 1: a sub-device per processing unit; then the first level of
 * affinity domains that splits the device (NEXT_PARTITIONABLE); then NUMA
 * nodes, where the machine has several. */
static void check_sub_devices(void)
{
    const cl_device_partition_property schemes[][3] = {
        {CL_DEVICE_PARTITION_EQUALLY, 1, 0},
        {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
         CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0},
        {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
         CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0},
    };
    const char *names[] = {"EQUALLY 1", "NEXT_PARTITIONABLE", "NUMA"};
    for (size_t k = 0; k < 3; k++) {
        cl_device_id subs[64];
        cl_uint count = 0;
        cl_int err = clCreateSubDevices(device, schemes[k], 64, subs, &count);
        if (err != CL_SUCCESS) {
            printf("%s: no sub-devices here (%d)\n", names[k], err);
            continue;
        }
        check_placed(subs, count, names[k]);
        release_all(subs, count);
    }
}

/* ---- stderr ----------------------------------------------------------------- */

static int saved_stderr = -1;
static FILE *captured;

/* Sends stderr to a file from now on: refcl's binding messages. */
static void capture_stderr(void)
{
    captured = tmpfile();
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    if (captured)
        dup2(fileno(captured), STDERR_FILENO);
}

/* Restores stderr, repeats what was written, and counts the lines that
 * start with @p prefix. */
static int release_stderr(const char *prefix)
{
    int lines = 0;
    char line[512];
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    if (!captured)
        return -1;
    rewind(captured);
    while (fgets(line, sizeof(line), captured)) {
        fputs(line, stderr);
        lines += strncmp(line, prefix, strlen(prefix)) == 0;
    }
    fclose(captured);
    return lines;
}

int main(void)
{
    const char *mode = binding();
    capture_stderr();
    if (!test_first_device(&platform, &device) ||
        !test_context_queue(device, 0, &context, &queue)) {
        release_stderr("");
        return 1;
    }
    cl_device_exec_capabilities caps = 0;
    CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES,
                             sizeof(caps), &caps, NULL),
             CL_SUCCESS);
    CHECK(caps & CL_EXEC_NATIVE_KERNEL);

    check_errors();
    check_args_copied();
    check_order();
    check_released_queue_finishes();

    cl_uint units = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units),
                    &units, NULL);
    bool skip = false;
    if (strcmp(mode, "bound") == 0 &&
        (units < 2 || !test_binding_allowed())) {
        printf("%s: cannot test binding here: skipped\n",
               units < 2 ? "a single processing unit"
                         : "this process may not bind threads");
        skip = true;
    } else {
        check_sub_devices();
    }
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);

    /* "a failed bind is reported once on stderr", and only then. */
    int said = release_stderr("refcl: ");
    bool expect_line = strcmp(mode, "impossible") == 0 ||
                       strcmp(mode, "fails") == 0;
    CHECK_EQ(said, expect_line ? 1 : 0);
    if (test_failures)
        return 1;
    return skip ? TEST_SKIP : 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every fault a compiled kernel can raise ends its command, not the
 * application (docs/kernels.md): a trap instruction (__builtin_trap, SIGILL
 * on x86-64), a debug trap (__builtin_debugtrap, SIGTRAP) and a private
 * array far larger than the thread's stack, written at its far end (the
 * stack probes make it hit the guard page: SIGSEGV, handled on the
 * alternate signal stack), and on x86-64 a system call refused as
 * seccomp refuses it (SIGSYS: the kernel, built with the unsafe inline
 * assembly option, sends it to its own thread). Each: the event's status is CL_OUT_OF_RESOURCES,
 * the context's pfn_notify names the kernel and the signal, and a good
 * kernel on the same queue then gives its exact result. Needs the compiler
 * (77 without it) and no valgrind (77 under it: valgrind reports the
 * fault itself).
 */
#include <sys/resource.h>

#include "../compiler/exec.h"

/* p[0] is 7 at run time, so the compiler cannot know the kernels fault;
 * each writes p[1] only if it survived its fault. The overflow's array,
 * OVERFLOW_INTS ints, is a little larger than a thread's stack, and its
 * first element (the lowest address, farthest from the frame) is written
 * first: without stack probes that write lands past the guard page, in
 * whatever memory lies below the stack. */
static const char *const source =
    "kernel void trap(global int *p)\n"
    "{\n"
    "    if (p[0] == 7)\n"
    "        __builtin_trap();\n"
    "    p[1] = 1;\n"
    "}\n"
    "kernel void debugtrap(global int *p)\n"
    "{\n"
    "    if (p[0] == 7)\n"
    "        __builtin_debugtrap();\n"
    "    p[1] = 1;\n"
    "}\n"
    "kernel void overflow(global int *p)\n"
    "{\n"
    "    volatile int a[OVERFLOW_INTS];\n"
    "    a[p[0] - 7] = p[0];\n"
    "    p[1] = a[p[0] - 7];\n"
    "}\n"
    "kernel void good(global int *p)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    p[i] = (int)i * 3 + 1;\n"
    "}\n";

/* x86-64's tgkill(getpid(), gettid(), SIGSYS), by its system call
 * numbers (39, 186, 234; SIGSYS is 31). */
static const char *const sigsys_source =
    "kernel void sigsys(global int *p)\n"
    "{\n"
    "    if (p[0] == 7) {\n"
    "        long pid, tid, r;\n"
    "        __asm__ volatile(\"syscall\" : \"=a\"(pid) : \"a\"(39L)\n"
    "                         : \"rcx\", \"r11\", \"memory\");\n"
    "        __asm__ volatile(\"syscall\" : \"=a\"(tid) : \"a\"(186L)\n"
    "                         : \"rcx\", \"r11\", \"memory\");\n"
    "        __asm__ volatile(\"syscall\" : \"=a\"(r)\n"
    "                         : \"a\"(234L), \"D\"(pid), \"S\"(tid),\n"
    "                           \"d\"(31L) : \"rcx\", \"r11\", \"memory\");\n"
    "    }\n"
    "    p[1] = 1;\n"
    "}\n";

#define GOOD_ITEMS 1024

/* The overflow's array: the size of a thread's stack (glibc's default,
 * RLIMIT_STACK, or 32 MiB where that is unlimited, ARCH_STACK_DEFAULT_SIZE)
 * and 64 KiB more, in ints. */
static size_t overflow_ints(void)
{
    struct rlimit limit;
    size_t bytes = 32u << 20;
    if (getrlimit(RLIMIT_STACK, &limit) == 0 &&
        limit.rlim_cur != RLIM_INFINITY)
        bytes = (size_t)limit.rlim_cur;
    return (bytes + (64u << 10)) / sizeof(int);
}

/* Runs @p k over @p items work-items with @p p; returns the event's
 * status. */
static cl_int run(cl_kernel k, cl_mem p, size_t items)
{
    return exec_status(k, p, 1, &items, NULL);
}

/* The good kernel after a fault: every work-item's value, exactly. */
static void check_good(cl_program program)
{
    cl_kernel k = exec_kernel(program, "good");
    cl_mem b = exec_buffer(GOOD_ITEMS * sizeof(cl_int), NULL);
    CHECK_EQ(run(k, b, GOOD_ITEMS), CL_COMPLETE);
    cl_int out[GOOD_ITEMS];
    exec_read(b, sizeof(out), out);
    int wrong = 0;
    for (int i = 0; i < GOOD_ITEMS; i++)
        wrong += out[i] != i * 3 + 1;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
}

/* Kernel @p name of @p program faults with @p signal: the event, the
 * notify, p[1] unwritten, then the good kernel of @p good. */
static void check_fault(cl_program program, const char *name,
                        const char *signal, cl_program good)
{
    printf("%s: expecting %s\n", name, signal);
    fflush(stdout);
    cl_kernel k = exec_kernel(program, name);
    cl_int in[2] = {7, 0};
    cl_mem b = exec_buffer(sizeof(in), in);
    struct exec_notes *notes = exec_notes();
    int before = notes->heard;
    CHECK_EQ(run(k, b, 1), CL_OUT_OF_RESOURCES);
    CHECK_EQ(notes->heard, before + 1);
    char expected[256];
    snprintf(expected, sizeof(expected), "kernel '%s': %s at address ", name,
             signal);
    CHECK_EQ(strncmp(notes->last, expected, strlen(expected)), 0);
    if (strncmp(notes->last, expected, strlen(expected)))
        fprintf(stderr, "notify said: %s\n", notes->last);
    cl_int out[2] = {0, 0};
    exec_read(b, sizeof(out), out);
    CHECK_EQ(out[1], 0);
    CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
    check_good(good);
}

int main(void)
{
    exec_setup_faults();
    char options[64];
    snprintf(options, sizeof(options), "-D OVERFLOW_INTS=%zu",
             overflow_ints());
    cl_program program = exec_build(source, options);
    if (!program)
        return 1;

#if defined(__x86_64__)
    check_fault(program, "trap", "SIGILL", program);
    check_fault(program, "debugtrap", "SIGTRAP", program);
    cl_program sigsys =
        exec_build(sigsys_source, "-cl-refcl-allow-inline-asm");
    if (sigsys) {
        check_fault(sigsys, "sigsys", "SIGSYS", program);
        CHECK_EQ(clReleaseProgram(sigsys), CL_SUCCESS);
    }
#endif
    check_fault(program, "overflow", "SIGSEGV", program);

    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    exec_teardown();
    return TEST_RESULT();
}

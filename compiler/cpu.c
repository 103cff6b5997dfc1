/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CPU refcl builds kernels for: this process's, as the CPUID
 * instruction tells it (under valgrind, valgrind's CPU), reduced to the
 * x86-64 psABI's micro-architecture levels, which clang takes as -march=
 * and which a binary can be checked against without a compiler. A level
 * names an exact feature set, so the build cache and the binary container
 * key on a name, and a binary built for a level above this host's is
 * refused (docs/compiler.md) instead of dying of SIGILL in a kernel.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/compiler.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* The levels, lowest first; the index is the level. */
static const char *const levels[] = {"x86-64", "x86-64-v2", "x86-64-v3",
                                     "x86-64-v4"};

/* Bit @p bit of every register of CPUID leaf @p leaf, subleaf 0. */
struct cpuid_regs {
    unsigned a, b, c, d;
};

static struct cpuid_regs cpuid(unsigned leaf)
{
    struct cpuid_regs r = {0, 0, 0, 0};
    if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) >= leaf)
        __cpuid_count(leaf, 0, r.a, r.b, r.c, r.d);
    return r;
}

static bool all(unsigned reg, unsigned mask)
{
    return (reg & mask) == mask;
}

/* The register state the OS saves (XCR0): AVX needs XMM+YMM (bits 1, 2),
 * AVX-512 also opmask and ZMM (bits 5, 6, 7). */
static unsigned long long os_state(const struct cpuid_regs *leaf1)
{
    if (!(leaf1->c & bit_OSXSAVE))
        return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (unsigned long long)hi << 32 | lo;
}

/* The psABI's definitions of x86-64-v2, -v3 and -v4. */
static unsigned host_level(void)
{
    struct cpuid_regs l1 = cpuid(1), l7 = cpuid(7), e1 = cpuid(0x80000001u);
    unsigned long long xcr0 = os_state(&l1);
    bool v2 = all(l1.c, bit_SSE3 | bit_SSSE3 | bit_SSE4_1 | bit_SSE4_2 |
                            bit_POPCNT | bit_CMPXCHG16B) &&
              all(e1.c, bit_LAHF_LM);
    bool v3 = v2 && (xcr0 & 0x6) == 0x6 &&
              all(l1.c, bit_AVX | bit_FMA | bit_MOVBE | bit_F16C) &&
              all(l7.b, bit_AVX2 | bit_BMI | bit_BMI2) && all(e1.c, bit_ABM);
    bool v4 = v3 && (xcr0 & 0xe6) == 0xe6 &&
              all(l7.b, bit_AVX512F | bit_AVX512DQ | bit_AVX512CD |
                            bit_AVX512BW | bit_AVX512VL);
    return v4 ? 3 : v3 ? 2 : v2 ? 1 : 0;
}
#else
static const char *const levels[] = {"armv8-a"};

static unsigned host_level(void)
{
    return 0;
}
#endif

#define LEVEL_COUNT (sizeof(levels) / sizeof(levels[0]))

static unsigned level;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* REFCL_CPU may name a lower level than the host's, which refcl then takes
 * for the host's (tests, binaries meant for older machines); never a
 * higher one. */
static void choose_level(void)
{
    level = host_level();
    const char *wanted = secure_getenv("REFCL_CPU");
    for (unsigned i = 0; wanted && i < level; i++)
        if (!strcmp(wanted, levels[i]))
            level = i;
}

const char *refcl_compiler_cpu(void)
{
    pthread_once(&once, choose_level);
    return levels[level];
}

bool refcl_compiler_cpu_runs(const char *name, size_t length)
{
    pthread_once(&once, choose_level);
    for (unsigned i = 0; i <= level && i < LEVEL_COUNT; i++)
        if (strlen(levels[i]) == length && !memcmp(levels[i], name, length))
            return true;
    return false;
}

// SPDX-License-Identifier: Apache-2.0
// OpenCL C 1.2's atomic functions: the 32-bit atomic_* (s6.12.11), the
// cl_khr_{global,local}_int32_{base,extended}_atomics atom_* of int and
// uint, and the cl_khr_int64_{base,extended}_atomics atom_* of long and
// ulong, on __global and __local memory. Compiled as OpenCL C 2.0 too, for
// the same functions on generic pointers: what llvm-spirv-15 makes of a
// SPIR-V atomic on a Generic pointer (`_Z10atomic_addPU3AS4Vii`), which
// OpenCL C itself does not declare.
//
// Each is a relaxed read-modify-write, the order these functions promise.
// The parameter is volatile so that any pointer converts to it; the
// operation is an atomic, not a volatile access (which LLVM would never
// combine: the work-group pass's atomics.cpp does).

#define OVL __attribute__((overloadable))
#define R __ATOMIC_RELAXED

// name(p, v): FETCH(p, v), returning the old value.
#define RMW(name, AS, T, FETCH)                                             \
    T OVL name(volatile AS T *p, T v)                                       \
    {                                                                       \
        AS T *q = (AS T *)p;                                                \
        return FETCH(q, v, R);                                              \
    }

// name(p): FETCH(p, 1), returning the old value.
#define STEP(name, AS, T, FETCH)                                            \
    T OVL name(volatile AS T *p)                                            \
    {                                                                       \
        AS T *q = (AS T *)p;                                                \
        return FETCH(q, 1, R);                                              \
    }

// name(p, cmp, v): v stored where *p is cmp; the old value returned.
#define CMPXCHG(name, AS, T)                                                \
    T OVL name(volatile AS T *p, T cmp, T v)                                \
    {                                                                       \
        __atomic_compare_exchange_n(p, &cmp, v, 0, R, R);                   \
        return cmp;                                                         \
    }

// The base functions (add sub xchg inc dec cmpxchg) named prefix<op>.
#define BASE(prefix, AS, T)                                                 \
    RMW(prefix##add, AS, T, __atomic_fetch_add)                             \
    RMW(prefix##sub, AS, T, __atomic_fetch_sub)                             \
    RMW(prefix##xchg, AS, T, __atomic_exchange_n)                           \
    STEP(prefix##inc, AS, T, __atomic_fetch_add)                            \
    STEP(prefix##dec, AS, T, __atomic_fetch_sub)                            \
    CMPXCHG(prefix##cmpxchg, AS, T)

// The extended functions (min max and or xor) named prefix<op>.
#define EXTENDED(prefix, AS, T)                                             \
    RMW(prefix##min, AS, T, __atomic_fetch_min)                             \
    RMW(prefix##max, AS, T, __atomic_fetch_max)                             \
    RMW(prefix##and, AS, T, __atomic_fetch_and)                             \
    RMW(prefix##or, AS, T, __atomic_fetch_or)                               \
    RMW(prefix##xor, AS, T, __atomic_fetch_xor)

// OpenCL C 1.2's 32-bit atomic_* of T (the atom_* of the extensions are
// the same functions by another name).
#define INT32(AS, T)                                                        \
    BASE(atomic_, AS, T)                                                    \
    EXTENDED(atomic_, AS, T)

// atomic_xchg of a float: the exchange of its bits.
#define FLOAT_XCHG(AS)                                                      \
    float OVL atomic_xchg(volatile AS float *p, float v)                    \
    {                                                                       \
        return as_float(__atomic_exchange_n((volatile AS uint *)p,          \
                                            as_uint(v), R));                \
    }

#if __OPENCL_C_VERSION__ == CL_VERSION_2_0
INT32(__generic, int)
INT32(__generic, uint)
FLOAT_XCHG(__generic)
BASE(atomic_, __generic, long)
BASE(atomic_, __generic, ulong)
EXTENDED(atomic_, __generic, long)
EXTENDED(atomic_, __generic, ulong)
BASE(atom_, __generic, long)
BASE(atom_, __generic, ulong)
EXTENDED(atom_, __generic, long)
EXTENDED(atom_, __generic, ulong)
#else
INT32(__global, int)
INT32(__global, uint)
#ifdef cl_khr_global_int32_base_atomics
BASE(atom_, __global, int)
EXTENDED(atom_, __global, int)
BASE(atom_, __global, uint)
EXTENDED(atom_, __global, uint)
#endif
FLOAT_XCHG(__global)

INT32(__local, int)
INT32(__local, uint)
#ifdef cl_khr_local_int32_base_atomics
BASE(atom_, __local, int)
EXTENDED(atom_, __local, int)
BASE(atom_, __local, uint)
EXTENDED(atom_, __local, uint)
#endif
FLOAT_XCHG(__local)

#ifdef cl_khr_int64_base_atomics
BASE(atom_, __global, long)
BASE(atom_, __global, ulong)
BASE(atom_, __local, long)
BASE(atom_, __local, ulong)
#endif
#ifdef cl_khr_int64_extended_atomics
EXTENDED(atom_, __global, long)
EXTENDED(atom_, __global, ulong)
EXTENDED(atom_, __local, long)
EXTENDED(atom_, __local, ulong)
#endif
#endif

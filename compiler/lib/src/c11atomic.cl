// SPDX-License-Identifier: Apache-2.0
// OpenCL C 2.0/3.0's atomic functions (s6.15.12), of atomic_int, uint,
// float, long, ulong, double and atomic_flag. Compiled twice: as OpenCL C
// 3.0, the __global and __local overloads opencl-c.h declares for OpenCL C
// 3.0 (with and without __opencl_c_generic_address_space) and
// atomic_work_item_fence; as OpenCL C 2.0, the generic ones ("If the
// __opencl_c_generic_address_space feature is supported, the A argument
// can be in the generic address space": a generic *expected with them).
//
// Each function comes in up to three forms: plain (memory_order_seq_cst,
// memory_scope_device), _explicit(order) (memory_scope_device) and
// _explicit(order, scope). clang's __c11_atomic_* builtins take the order
// (memory_order's values are the __ATOMIC_* ones) and no scope: they are
// system-wide. OpenCL C 3.0 s6.15.12: "The enumerated type memory_scope
// specifies whether the memory ordering constraints given by memory_order
// apply to work-items in a work-group or work-items of a kernel(s) executing
// on the device or across devices (in the case of shared virtual memory)";
// every work-item of every refcl device shares the CPU's one coherent
// memory, so system-wide is at least as strong as any scope asked for, and
// the scope is accepted and dropped.

#define OVL __attribute__((overloadable))
#define UNPAREN(...) __VA_ARGS__

// NAME with the parameters PARAMS (in parentheses) in its three forms,
// BODY(order, ...) the body for a memory order, given the arguments after
// BODY too.
#define FORMS(RET, NAME, PARAMS, BODY, ...)                                 \
    RET OVL NAME(UNPAREN PARAMS)                                            \
    {                                                                       \
        BODY(memory_order_seq_cst, __VA_ARGS__)                             \
    }                                                                       \
    RET OVL NAME##_explicit(UNPAREN PARAMS, memory_order order)             \
    {                                                                       \
        BODY(order, __VA_ARGS__)                                            \
    }                                                                       \
    RET OVL NAME##_explicit(UNPAREN PARAMS, memory_order order,             \
                            memory_scope scope)                             \
    {                                                                       \
        (void)scope;                                                        \
        BODY(order, __VA_ARGS__)                                            \
    }

// FORMS of a function taking two orders (success, failure).
#define FORMS2(RET, NAME, PARAMS, BODY, ...)                                \
    RET OVL NAME(UNPAREN PARAMS)                                            \
    {                                                                       \
        BODY(memory_order_seq_cst, memory_order_seq_cst, __VA_ARGS__)       \
    }                                                                       \
    RET OVL NAME##_explicit(UNPAREN PARAMS, memory_order success,           \
                            memory_order failure)                           \
    {                                                                       \
        BODY(success, failure, __VA_ARGS__)                                 \
    }                                                                       \
    RET OVL NAME##_explicit(UNPAREN PARAMS, memory_order success,           \
                            memory_order failure, memory_scope scope)       \
    {                                                                       \
        (void)scope;                                                        \
        BODY(success, failure, __VA_ARGS__)                                 \
    }

#define STORE(order, ...) __c11_atomic_store(p, v, order);
#define LOAD(order, ...) return __c11_atomic_load(p, order);
#define EXCHANGE(order, ...) return __c11_atomic_exchange(p, v, order);
// *expected is written on failure only (C11 7.17.7.4), through a private
// copy: the builtin takes no __global or __local expected.
#define COMPARE_EXCHANGE(success, failure, T, BUILTIN)                      \
    T old = *expected;                                                      \
    bool ok = BUILTIN(p, &old, desired, success, failure);                  \
    if (!ok)                                                                \
        *expected = old;                                                    \
    return ok;
// The pointer is cast to a non-volatile one: see atomic.cl.
#define FETCH(order, KEY, AS, T)                                            \
    return __c11_atomic_fetch_##KEY((AS atomic_##T *)p, (T)v, order);
// atomic_flag is an atomic_int, ATOMIC_FLAG_INIT 0.
#define TEST_AND_SET(order, ...) return __c11_atomic_exchange(p, 1, order) != 0;
#define CLEAR(order, ...) __c11_atomic_store(p, 0, order);

// atomic_compare_exchange_strong and _weak with *expected in WHERE.
#define COMPARE_EXCHANGES(AS, T, WHERE)                                     \
    FORMS2(bool, atomic_compare_exchange_strong,                            \
           (volatile AS atomic_##T *p, WHERE T *expected, T desired),       \
           COMPARE_EXCHANGE, T, __c11_atomic_compare_exchange_strong)       \
    FORMS2(bool, atomic_compare_exchange_weak,                              \
           (volatile AS atomic_##T *p, WHERE T *expected, T desired),       \
           COMPARE_EXCHANGE, T, __c11_atomic_compare_exchange_weak)

// init, store, load, exchange, compare_exchange_strong/weak of
// volatile AS atomic_T.
#define TYPE_FUNCTIONS(AS, T)                                               \
    void OVL atomic_init(volatile AS atomic_##T *p, T v)                    \
    {                                                                       \
        __c11_atomic_init(p, v);                                            \
    }                                                                       \
    FORMS(void, atomic_store, (volatile AS atomic_##T *p, T v), STORE, )    \
    FORMS(T, atomic_load, (volatile AS atomic_##T *p), LOAD, )              \
    FORMS(T, atomic_exchange, (volatile AS atomic_##T *p, T v), EXCHANGE, ) \
    EXPECTED_SPACES(AS, T)

// atomic_fetch_<key> of volatile AS atomic_T by an operand of type U: T, or,
// for atomic_intptr_t and atomic_uintptr_t (long and ulong here), the other
// signedness (ptrdiff_t, intptr_t, uintptr_t: opencl-c.h's overloads),
// computed in T.
#define FETCH_FUNCTIONS(AS, T, U)                                           \
    FORMS(T, atomic_fetch_add, (volatile AS atomic_##T *p, U v), FETCH,     \
          add, AS, T)                                                       \
    FORMS(T, atomic_fetch_sub, (volatile AS atomic_##T *p, U v), FETCH,     \
          sub, AS, T)                                                       \
    FORMS(T, atomic_fetch_or, (volatile AS atomic_##T *p, U v), FETCH,      \
          or, AS, T)                                                        \
    FORMS(T, atomic_fetch_xor, (volatile AS atomic_##T *p, U v), FETCH,     \
          xor, AS, T)                                                       \
    FORMS(T, atomic_fetch_and, (volatile AS atomic_##T *p, U v), FETCH,     \
          and, AS, T)                                                       \
    FORMS(T, atomic_fetch_min, (volatile AS atomic_##T *p, U v), FETCH,     \
          min, AS, T)                                                       \
    FORMS(T, atomic_fetch_max, (volatile AS atomic_##T *p, U v), FETCH,     \
          max, AS, T)

#define FLAG_FUNCTIONS(AS)                                                  \
    FORMS(bool, atomic_flag_test_and_set, (volatile AS atomic_flag *p),     \
          TEST_AND_SET, )                                                   \
    FORMS(void, atomic_flag_clear, (volatile AS atomic_flag *p), CLEAR, )

#define SPACE_FUNCTIONS(AS)                                                 \
    TYPE_FUNCTIONS(AS, int)                                                 \
    TYPE_FUNCTIONS(AS, uint)                                                \
    TYPE_FUNCTIONS(AS, float)                                               \
    TYPE_FUNCTIONS(AS, long)                                                \
    TYPE_FUNCTIONS(AS, ulong)                                               \
    FETCH_FUNCTIONS(AS, int, int)                                           \
    FETCH_FUNCTIONS(AS, uint, uint)                                         \
    FETCH_FUNCTIONS(AS, long, long)                                         \
    FETCH_FUNCTIONS(AS, ulong, ulong)                                       \
    FETCH_FUNCTIONS(AS, ulong, long)                                        \
    FETCH_FUNCTIONS(AS, long, ulong)                                        \
    FLAG_FUNCTIONS(AS)

#if __OPENCL_C_VERSION__ == CL_VERSION_2_0
// opencl-c.h's generic overloads take *expected in the generic space too.
#define EXPECTED_SPACES(AS, T) COMPARE_EXCHANGES(AS, T, __generic)
SPACE_FUNCTIONS(__generic)
#ifdef cl_khr_fp64
TYPE_FUNCTIONS(__generic, double)
#endif
#else
#define EXPECTED_SPACES(AS, T)                                              \
    COMPARE_EXCHANGES(AS, T, __global)                                      \
    COMPARE_EXCHANGES(AS, T, __local)                                       \
    COMPARE_EXCHANGES(AS, T, __private)
SPACE_FUNCTIONS(__global)
SPACE_FUNCTIONS(__local)
#ifdef cl_khr_fp64
TYPE_FUNCTIONS(__global, double)
TYPE_FUNCTIONS(__local, double)
#endif

// The flags choose which memory a fence orders; on one coherent memory
// the order alone decides (relaxed: no fence).
void OVL atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                memory_scope scope)
{
    (void)flags;
    (void)scope;
    __c11_atomic_thread_fence(order);
}
#endif

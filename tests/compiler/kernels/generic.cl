/* SPDX-License-Identifier: Apache-2.0 */
/* kernel/generic's and program/il-generic's kernels (tests/compiler/generic.c):
 * OpenCL C's generic address space, built from source as OpenCL C 3.0 and
 * from SPIR-V made of it as OpenCL C 2.0. */

/* Where q points, as the address-space queries say: bit 0 to_global,
 * bit 1 to_local, bit 2 to_private (each non-NULL), bits 3-4 get_fence,
 * bit 5 the named pointer reads what q reads. */
int classify(int *q)
{
    global int *g = to_global(q);
    local int *l = to_local(q);
    private int *p = to_private(q);
    int seen = g ? *g : l ? *l : p ? *p : -1;
    return (g != 0) | (l != 0) << 1 | (p != 0) << 2 |
           (int)get_fence(q) << 3 | (seen == *q) << 5;
}

/* Per work-item 6 results: a __global buffer, a kernel-scope __local
 * array, a private array, a __local argument, the private array again
 * after a barrier (a value that lives across it: in the group's frames),
 * and one pointer that is __global in odd work-items, __local in even
 * ones. */
kernel void spaces(global int *g, global int *out, local int *la)
{
    local int l[64];
    int p[3];
    int i = (int)get_global_id(0), li = (int)get_local_id(0);
    g[i] = i + 100;
    l[li] = i + 200;
    la[li] = i + 300;
    p[i % 3] = i + 400;
    out[i * 6 + 0] = classify(g + i);
    out[i * 6 + 1] = classify(l + li);
    out[i * 6 + 2] = classify(&p[i % 3]);
    out[i * 6 + 3] = classify(la + li);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i * 6 + 4] = classify(&p[i % 3]) + p[i % 3] - (i + 400);
    int *either = (i & 1) ? (int *)(g + i) : (int *)(l + li);
    out[i * 6 + 5] = classify(either);
}

/* Per work-item 2 results, in a kernel that calls nothing and has no
 * barrier (its variables may be placed below the stack pointer, where the
 * x86-64 psABI's red zone is): a private scalar and a program-scope
 * variable. */
global int program_scope = 600;

kernel void leaf(global int *out)
{
    int i = (int)get_global_id(0);
    int mine = i + 500;
    out[i * 2 + 0] = classify(&mine);
    out[i * 2 + 1] = classify(&program_scope);
}

/* The library's generic overloads, one work-item: the math functions'
 * second results through generic pointers to private memory, vload4,
 * vstore4, vload_half and vstore_half on __global memory through generic
 * pointers, the atomics on __global and __local memory through generic
 * pointers (a generic *expected). */
kernel void builtins(global float *f, global int *n, global ushort *h,
                     global int *a)
{
    local int la[2];
    float x = 0.0f;
    int e = 0;
    float *px = &x;
    int *pe = &e;
    f[0] = fract(1.75f, px); f[1] = x;
    f[2] = frexp(12.0f, pe); n[0] = e;
    f[3] = modf(-2.5f, px); f[4] = x;
    f[5] = remquo(7.0f, 2.0f, pe); n[1] = e;
    f[6] = sincos(0.0f, px); f[7] = x;
    f[8] = lgamma_r(3.0f, pe); n[2] = e;
    float *gf = (float *)(f + 16);
    vstore4(vload4(0, gf) * 2.0f, 1, gf);
    half *hp = (half *)h;
    vstore_half(3.5f, 0, hp);
    f[9] = vload_half(0, hp);
    atomic_int *ga = (atomic_int *)(int *)a;
    n[3] = atomic_fetch_add(ga, 3);
    int expected = 8;
    int *pexp = &expected;
    n[4] = atomic_compare_exchange_strong(ga, pexp, 20);
    expected = 0;
    n[5] = atomic_compare_exchange_strong_explicit(ga, pexp, 30,
                                                   memory_order_acq_rel,
                                                   memory_order_acquire);
    n[6] = expected;
    atomic_int *lp = (atomic_int *)(int *)la;
    atomic_init(lp, 7);
    n[7] = atomic_fetch_max(lp, 11);
    n[8] = atomic_load_explicit(lp, memory_order_relaxed);
    atomic_flag *flag = (atomic_flag *)(int *)(a + 1);
    n[9] = atomic_flag_test_and_set(flag);
    n[10] = atomic_flag_test_and_set_explicit(flag, memory_order_acquire);
    atomic_flag_clear(flag);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
                           memory_scope_work_group);
    n[11] = atomic_load((atomic_int *)(int *)(a + 1));
}

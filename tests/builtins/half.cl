// SPDX-License-Identifier: Apache-2.0
// builtins/half: vload_half(N), vloada_halfN, vstore_half(N)(_mode) and
// vstorea_halfN(_mode) of refcl-builtins.bc, called from half.c over
// arrays: n vectors of each width, through each address space (the
// functions are called directly, so any pointer will do for local).
#define LOAD1(S) \
    void vload_half_##S(const S half *p, global float *r, int n) \
    { for (int i = 0; i < n; i++) r[i] = vload_half(i, p); }
#define LOADN(S, N, A) \
    void vload##A##_half##N##_##S(const S half *p, global float *r, int n) \
    { for (int i = 0; i < n; i++) vstore##N(vload##A##_half##N(i, p), i, r); }
#define LOADS(S) LOAD1(S) \
    LOADN(S, 2, ) LOADN(S, 3, ) LOADN(S, 4, ) LOADN(S, 8, ) LOADN(S, 16, ) \
    LOADN(S, 2, a) LOADN(S, 3, a) LOADN(S, 4, a) LOADN(S, 8, a) LOADN(S, 16, a)
LOADS(global) LOADS(local) LOADS(constant) LOADS(private)

#define STORE1(T, S, M) \
    void vstore_half##M##_##T##1_##S(const global T *v, S half *p, int n) \
    { for (int i = 0; i < n; i++) vstore_half##M(v[i], i, p); }
#define STOREN(T, S, N, A, M) \
    void vstore##A##_half##N##M##_##T##N##_##S(const global T *v, S half *p, int n) \
    { for (int i = 0; i < n; i++) vstore##A##_half##N##M(vload##N(i, v), i, p); }
#define STOREW(T, S, M) STORE1(T, S, M) \
    STOREN(T, S, 2, , M) STOREN(T, S, 3, , M) STOREN(T, S, 4, , M) STOREN(T, S, 8, , M) STOREN(T, S, 16, , M) \
    STOREN(T, S, 2, a, M) STOREN(T, S, 3, a, M) STOREN(T, S, 4, a, M) STOREN(T, S, 8, a, M) STOREN(T, S, 16, a, M)
#define STORES(T, S) STOREW(T, S, ) STOREW(T, S, _rte) STOREW(T, S, _rtz) STOREW(T, S, _rtp) STOREW(T, S, _rtn)
STORES(float, global) STORES(float, local) STORES(float, private)
STORES(double, global) STORES(double, local) STORES(double, private)

// SPDX-License-Identifier: Apache-2.0
// builtins/convert: every convert_<dst>[_sat][_<mode>](<src>) of
// refcl-builtins.bc, for every pair of types, at widths 1, 3 and 16, over
// an array of COUNT values; convert.c checks every element against exact
// host arithmetic.
#define COUNT 240
#define CV1(D, S, M) \
    void cv_##D##M##_##S##1(const global S *x, global D *r) \
    { for (int i = 0; i < COUNT; i++) r[i] = convert_##D##M(x[i]); }
#define CVN(D, S, M, N) \
    void cv_##D##M##_##S##N(const global S *x, global D *r) \
    { for (int i = 0; i < COUNT / N; i++) vstore##N(convert_##D##N##M(vload##N(i, x)), i, r); }
#define CV(D, S, M) CV1(D, S, M) CVN(D, S, M, 3) CVN(D, S, M, 16)
#define MODES(D, S) CV(D, S, ) CV(D, S, _rte) CV(D, S, _rtz) CV(D, S, _rtp) CV(D, S, _rtn)
#define SAT(D, S) MODES(D, S) CV(D, S, _sat) CV(D, S, _sat_rte) CV(D, S, _sat_rtz) \
    CV(D, S, _sat_rtp) CV(D, S, _sat_rtn)
#define FROM(X, D) X(D, char) X(D, uchar) X(D, short) X(D, ushort) X(D, int) X(D, uint) \
    X(D, long) X(D, ulong) X(D, float) X(D, double)
FROM(SAT, char) FROM(SAT, uchar) FROM(SAT, short) FROM(SAT, ushort) FROM(SAT, int)
FROM(SAT, uint) FROM(SAT, long) FROM(SAT, ulong) FROM(MODES, float) FROM(MODES, double)

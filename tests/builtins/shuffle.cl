// SPDX-License-Identifier: Apache-2.0
// builtins/shuffle: shuffle and shuffle2 of refcl-builtins.bc, every
// element type and pair of widths; shuffle.c checks them.
#define SH(T, U, M, N) \
    void sh_##T##_##M##_##N(const global T *x, const global T *y, const global U *mask, \
                            global T *r, global T *r2) \
    { vstore##N(shuffle(vload##M(0, x), vload##N(0, mask)), 0, r); \
      vstore##N(shuffle2(vload##M(0, x), vload##M(0, y), vload##N(0, mask)), 0, r2); }
#define TO(T, U, M) SH(T, U, M, 2) SH(T, U, M, 4) SH(T, U, M, 8) SH(T, U, M, 16)
#define FROM(T, U) TO(T, U, 2) TO(T, U, 4) TO(T, U, 8) TO(T, U, 16)
FROM(char, uchar) FROM(uchar, uchar) FROM(short, ushort) FROM(ushort, ushort)
FROM(int, uint) FROM(uint, uint) FROM(long, ulong) FROM(ulong, ulong)
FROM(float, uint) FROM(double, ulong)

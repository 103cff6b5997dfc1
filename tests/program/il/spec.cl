/* SPDX-License-Identifier: Apache-2.0 */
/* program/il-spec's kernel, compiled to SPIR-V when the tests are built
 * (clang-15 -target spir64, then llvm-spirv-15): four specialization
 * constants, SpecId 3 (int, default 7), 4 (long, -5), 5 (float, 1.5) and
 * 6 (bool, false). llvm-spirv makes an OpSpecConstant of each call of
 * __spirv_SpecConstant(id, default). */
int __attribute__((overloadable)) __spirv_SpecConstant(int id, int value);
long __attribute__((overloadable)) __spirv_SpecConstant(int id, long value);
float __attribute__((overloadable)) __spirv_SpecConstant(int id, float value);
bool __attribute__((overloadable)) __spirv_SpecConstant(int id, bool value);
kernel void spec(global int *i, global long *l, global float *f, global uchar *b)
{
    i[0] = __spirv_SpecConstant(3, 7);
    l[0] = __spirv_SpecConstant(4, -5L);
    f[0] = __spirv_SpecConstant(5, 1.5f);
    b[0] = __spirv_SpecConstant(6, false) ? 1 : 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* program/il's kernel, compiled to SPIR-V when the tests are built
 * (clang-15 -target spir64, then llvm-spirv-15): each work-group's values
 * reversed through __local memory across a barrier, scaled, with a
 * builtin of the library (clamp). */
kernel void reverse(global const float *x, global float *y, float a,
                    local float *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    y[get_global_id(0)] = clamp(a * tmp[n - 1 - l], -100.0f, 100.0f);
}

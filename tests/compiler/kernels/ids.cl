// SPDX-License-Identifier: Apache-2.0
// Every work-item function, for each dimension and for dimensions out of
// range (a constant 3 and a run-time dim), into 32 ulongs per work-item.
#define N 32
__kernel void ids(__global ulong *out, uint dim)
{
    __global ulong *o = out + get_global_linear_id() * N;
    for (uint d = 0; d < 3; d++) {
        o[d * 8 + 0] = get_global_id(d);
        o[d * 8 + 1] = get_local_id(d);
        o[d * 8 + 2] = get_group_id(d);
        o[d * 8 + 3] = get_local_size(d);
        o[d * 8 + 4] = get_enqueued_local_size(d);
        o[d * 8 + 5] = get_num_groups(d);
        o[d * 8 + 6] = get_global_size(d);
        o[d * 8 + 7] = get_global_offset(d);
    }
    o[24] = get_work_dim();
    o[25] = get_local_linear_id();
    o[26] = get_global_linear_id();
    o[27] = get_local_id(3) + get_global_id(dim) + get_group_id(dim) + get_global_offset(dim);
    o[28] = get_local_size(3) * get_local_size(dim) * get_global_size(dim) * get_num_groups(dim)
            * get_enqueued_local_size(dim);
    o[29] = get_local_id(dim + 3 - 3);
    o[30] = 0xfeed;
    o[31] = 0xbeef;
}

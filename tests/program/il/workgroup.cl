// SPDX-License-Identifier: Apache-2.0
// Work-group collective functions through SPIR-V (OpGroupFAdd, OpGroupFMax,
// OpGroupBroadcast, OpGroupAll, OpGroupIAdd), as OpenCL C 2.0.
kernel void collectives(global const float *in, global float *sums,
                        global int *ints)
{
    size_t i = get_global_id(0);
    sums[i] = work_group_reduce_add(in[i]) + work_group_scan_exclusive_max(in[i]);
    ints[i] = work_group_broadcast((int)i, 3) + work_group_all(i < 100) +
              (int)work_group_scan_inclusive_add((long)1);
}

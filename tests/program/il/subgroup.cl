// SPDX-License-Identifier: Apache-2.0
// Sub-group functions through SPIR-V (the SubgroupSize, SubgroupId ...
// built-ins, OpGroupIAdd, OpGroupFMin, OpGroupBroadcast, OpGroupAny,
// OpControlBarrier at sub-group scope, which llvm-spirv-15 reads back as
// a work-group barrier), as OpenCL C 2.0 with cl_khr_subgroups.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void subgroups(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int sum = sub_group_reduce_add(x);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    float low = sub_group_scan_inclusive_min((float)x);
    int first = sub_group_broadcast(x, 0);
    int any = sub_group_any(x > 90);
    out[6 * i] = sum;
    out[6 * i + 1] = (int)low;
    out[6 * i + 2] = first;
    out[6 * i + 3] = any;
    out[6 * i + 4] = (int)get_sub_group_id();
    out[6 * i + 5] = (int)(get_sub_group_local_id() + 100 * get_sub_group_size() +
                           10000 * get_num_sub_groups());
}

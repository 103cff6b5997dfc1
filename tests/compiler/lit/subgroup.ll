; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup on kernels with sub-groups, built for x86-64-v3 (8 lanes
; of 32 bits: sub-groups of 8 work-items, recorded for the table).
; @ids only asks for its sub-group: the work-group nest, the ids from the
; local linear id. @partial reaches a sub-group barrier in a branch on its
; sub-group id: the sub-group nest, whose sub-group loop runs each
; sub-group's regions, the work-items stopped at the earliest sub-group
; barrier first, until all have reached a work-group barrier or the
; return; then the next sub-group. The two scratches are two slots.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define internal void @refcl.run.ids(
; CHECK-NOT: sub.group
; CHECK: %refcl.lin = add i64
; CHECK: [[SG:%.*]] = udiv i64 %refcl.lin, 8
; CHECK: trunc i64 [[SG]] to i32
; CHECK: [[LID:%.*]] = urem i64 %refcl.lin, 8
; CHECK: trunc i64 [[LID]] to i32
; CHECK: ret void
define spir_kernel void @ids(ptr addrspace(1) %out) #0 {
  %id = call i64 @_Z13get_global_idj(i32 0)
  %sg = call i32 @_Z16get_sub_group_idv()
  %lid = call i32 @_Z22get_sub_group_local_idv()
  %sum = add i32 %sg, %lid
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %id
  store i32 %sum, ptr addrspace(1) %p, align 4
  ret void
}

; CHECK-LABEL: define internal void @refcl.run.partial(
; The sub-groups of the group: (items + 7) / 8.
; CHECK: [[XY:%.*]] = mul i64
; CHECK-NEXT: [[ITEMS:%.*]] = mul i64 [[XY]],
; CHECK-NEXT: [[UP:%.*]] = add i64 [[ITEMS]], 7
; CHECK-NEXT: [[GROUPS:%.*]] = udiv i64 [[UP]], 8
; The flags (a byte per work-item, after slot 0 and the two scratches)
; cleared at the group's entry.
; CHECK: [[AT80:%.*]] = mul i64 [[ITEMS]], 80
; CHECK-NEXT: [[FLAGS0:%.*]] = getelementptr inbounds i8, ptr %{{.*}}, i64 [[AT80]]
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 [[FLAGS0]], i8 0, i64 [[ITEMS]], i1 false)
; CHECK: region:
; CHECK-NEXT: [[GROUP_REGION:%.*]] = phi i32 [ 0, %entry ], [ [[NEXT:%.*]], %region.latch ]
; CHECK: sub.group:
; CHECK-NEXT: %refcl.sub.group = phi i64 [ 0, %region ], [ [[SGNEXT:%.*]], %sub.group.latch ]
; CHECK-NEXT: %refcl.sub.group.base = mul i64 %refcl.sub.group, 8
; CHECK: sub.region:
; CHECK-NEXT: %refcl.region = phi i32 [ [[GROUP_REGION]], %sub.group ], [ [[MIN:%.*]], %sub.region.again ]
; CHECK-NEXT: %refcl.first.pass = phi i1 [ true, %sub.group ], [ false, %sub.region.again ]
; CHECK-NEXT: switch i32 %refcl.region, label %x.r0 [
; CHECK: sub.group.latch:
; CHECK-NEXT: [[SGNEXT]] = add nuw i64 %refcl.sub.group, 1
; CHECK-NEXT: icmp ult i64 [[SGNEXT]], [[GROUPS]]
; CHECK: region.latch:
; CHECK-NEXT: [[NEXT]] = load i32, ptr %refcl.next
; The sub-group's latch: the earliest region after a sub-group barrier
; (region 1 only here) where one of its work-items waits, else the next
; sub-group, the group going on where they stopped.
; CHECK: sub.region.scan:
; CHECK-NEXT: %refcl.scan.lane = phi i64
; CHECK-NEXT: %refcl.scan.min = phi i32 [ -1, %sub.region.latch ], [ [[MIN]], %sub.region.scan ]
; CHECK-NEXT: %refcl.scan.stop = phi i32 [ -1, %sub.region.latch ], [ [[STOP:%.*]], %sub.region.scan ]
; CHECK-NEXT: [[AT:%.*]] = add i64 %refcl.sub.group.base, %refcl.scan.lane
; CHECK-NEXT: [[BYTE:%.*]] = mul i64 [[AT]], 4
; CHECK-NEXT: [[SLOT:%.*]] = getelementptr inbounds i8, ptr %{{.*}}, i64 [[BYTE]]
; CHECK-NEXT: [[WHERE:%.*]] = load i32, ptr [[SLOT]]
; CHECK-NEXT: [[AT1:%.*]] = icmp eq i32 [[WHERE]], 1
; CHECK-NEXT: [[WAITS:%.*]] = or i1 false, [[AT1]]
; CHECK-NEXT: [[EARLIER:%.*]] = icmp ult i32 [[WHERE]], %refcl.scan.min
; CHECK-NEXT: [[TAKE:%.*]] = and i1 [[WAITS]], [[EARLIER]]
; CHECK-NEXT: [[MIN]] = select i1 [[TAKE]], i32 [[WHERE]], i32 %refcl.scan.min
; CHECK: [[STOP]] = select i1 %{{.*}}, i32 [[WHERE]], i32 %refcl.scan.stop
; CHECK: sub.region.done:
; CHECK-NEXT: [[FOUND:%.*]] = icmp ne i32 [[MIN]], -1
; CHECK-NEXT: br i1 [[FOUND]], label %sub.region.again, label %sub.region.leave
; CHECK: sub.region.leave:
; CHECK-NEXT: store i32 [[STOP]], ptr %refcl.next
; CHECK-NEXT: br label %sub.group.latch
; CHECK: sub.region.again:
; CHECK-NEXT: br label %sub.region
; The sub-group's work-items: ids from the linear one; where each stopped
; in frame slot 0 (4 bytes each), then the two scratches (16 and 48 bytes
; per work-item); only those stopped before the region run it.
; CHECK: x.r0:
; CHECK-NEXT: %refcl.lane.r0 = phi i64 [ 0, %sub.region ], [ [[LANE:%.*]], %x.latch.r0 ]
; CHECK-NEXT: %refcl.lin.r0 = add i64 %refcl.sub.group.base, %refcl.lane.r0
; CHECK: [[FRAMES:%.*]] = load ptr
; CHECK-NEXT: [[AT0:%.*]] = mul i64 [[ITEMS]], 0
; CHECK-NEXT: [[BASE:%.*]] = mul i64 %refcl.sub.group.base, 4
; CHECK-NEXT: [[OFF:%.*]] = add i64 [[AT0]], [[BASE]]
; CHECK-NEXT: [[FIRST:%.*]] = getelementptr inbounds i8, ptr [[FRAMES]], i64 [[OFF]]
; CHECK-NEXT: [[MINE:%.*]] = mul i64 %refcl.lane.r0, 4
; CHECK-NEXT: [[STOPPED:%.*]] = getelementptr inbounds i8, ptr [[FIRST]], i64 [[MINE]]
; CHECK-NEXT: [[AT16:%.*]] = mul i64 [[ITEMS]], 16
; CHECK-NEXT: [[GROUP_SCRATCH:%.*]] = getelementptr inbounds i8, ptr [[FRAMES]], i64 [[AT16]]
; CHECK-NEXT: [[AT32:%.*]] = mul i64 [[ITEMS]], 32
; CHECK-NEXT: [[SUB_SCRATCH:%.*]] = getelementptr inbounds i8, ptr [[FRAMES]], i64 [[AT32]]
; CHECK-NEXT: mul i64 [[ITEMS]], 80
; CHECK-NEXT: [[FLAGS:%.*]] = getelementptr inbounds i8, ptr [[FRAMES]]
; CHECK: %refcl.lane.region = load i32, ptr [[STOPPED]]
; CHECK-NEXT: [[HERE:%.*]] = icmp eq i32 %refcl.lane.region, 0
; CHECK-NEXT: [[ACTIVE:%.*]] = or i1 %refcl.first.pass, [[HERE]]
; CHECK-NEXT: br i1 [[ACTIVE]], label %body.r0, label %x.latch.r0
; Odd sub-groups store and stop at the sub-group barrier (region 1), the
; others go on to the work-group barrier (region 2).
; CHECK: then.i.r0:
; CHECK-NEXT: store i8 1, ptr [[FLAGS]], align 1
; CHECK-NEXT: store i32 1, ptr [[SUB_SCRATCH]]
; CHECK-NEXT: store i32 1, ptr [[STOPPED]]
; CHECK: partial.exit.r0:
; CHECK: store i32 %{{.*}}, ptr [[GROUP_SCRATCH]]
; CHECK-NEXT: store i32 2, ptr [[STOPPED]]
; CHECK: x.latch.r0:
; CHECK-NEXT: [[LANE]] = add nuw i64 %refcl.lane.r0, 1
; CHECK-NEXT: icmp ult i64 [[LANE]], %refcl.sub.group.size
; CHECK-NOT: call {{.*}}barrier
; CHECK-NOT: call {{.*}}scratch
define spir_kernel void @partial(ptr addrspace(1) %out) #0 {
entry:
  %id = call i64 @_Z13get_global_idj(i32 0)
  %sg = call i32 @_Z16get_sub_group_idv()
  %odd = and i32 %sg, 1
  %scratch = call ptr @__refcl_group_scratch()
  %sub = call ptr @__refcl_sub_group_scratch()
  %flags = call ptr @__refcl_sub_group_flags()
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %then, label %join

then:
  store i8 1, ptr %flags, align 1
  store i32 1, ptr %sub, align 4
  call void @_Z17sub_group_barrierj(i32 1)
  %v = load i32, ptr %sub, align 4
  br label %join

join:
  %r = phi i32 [ %v, %then ], [ 0, %entry ]
  store i32 %r, ptr %scratch, align 4
  call void @_Z7barrierj(i32 1)
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %id
  %w = load i32, ptr %scratch, align 4
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}

; CHECK-LABEL: !refcl.kernels
; CHECK: !{ptr @ids, ptr @refcl.run.ids, i1 false, i1 false, i64 0, i64 0, i64 0, i64 8}
; CHECK: !{ptr @partial, ptr @refcl.run.partial, i1 true, i1 false, i64 0, i64 {{[0-9]+}}, i64 {{[0-9]+}}, i64 8}

declare i64 @_Z13get_global_idj(i32)
declare i32 @_Z16get_sub_group_idv()
declare i32 @_Z22get_sub_group_local_idv()
declare void @_Z17sub_group_barrierj(i32)
declare void @_Z7barrierj(i32)
declare ptr @__refcl_group_scratch()
declare ptr @__refcl_sub_group_scratch()
declare ptr @__refcl_sub_group_flags()

attributes #0 = { "target-cpu"="x86-64-v3" }

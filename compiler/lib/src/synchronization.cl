// SPDX-License-Identifier: Apache-2.0
// Memory fences. A work-group's work-items run on one thread, so the
// fences order a work-item's accesses against other work-groups' threads:
// acquire-release costs no instruction on x86-64 and keeps the compiler
// from moving loads and stores across.

void __attribute__((overloadable)) mem_fence(cl_mem_fence_flags flags)
{
    (void)flags;
    __atomic_thread_fence(__ATOMIC_ACQ_REL);
}

void __attribute__((overloadable)) read_mem_fence(cl_mem_fence_flags flags)
{
    (void)flags;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

void __attribute__((overloadable)) write_mem_fence(cl_mem_fence_flags flags)
{
    (void)flags;
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

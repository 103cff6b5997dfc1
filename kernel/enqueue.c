/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clEnqueueNDRangeKernel and clEnqueueTask: every check of OpenCL 3.0,
 * then a command (struct refcl_launch) that the execution layer runs over
 * the range, spread over the compute units of the queue's device
 * (exec/ndrange.c).
 *
 * The command takes a snapshot of the kernel's arguments at enqueue ("The
 * argument data is used by all API calls that enqueue the kernel until the
 * argument is changed"), holds the kernel and every buffer it uses, and
 * lets go of them before its completion can be seen. The snapshot is sized
 * by the kernel's arguments: one allocation holds the command, a value per
 * argument, and the copies of by-value arguments over 8 bytes.
 *
 * Work-groups: refcl supports non-uniform work-groups
 * (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT): a dimension whose global size
 * is not a multiple of the local size ends with a smaller group. Built-in
 * kernels have no OpenCL C version that could ask for uniform groups. With
 * no local size, refcl chooses (min(global[0], M), 1, 1), M being
 * CL_KERNEL_WORK_GROUP_SIZE or what the kernel's __local arguments hold,
 * whichever is less (docs/built-in-kernels.md).
 *
 * Compiled kernels' pointers (docs/kernels.md) have no known extent: they
 * get the address, unchecked. With no local size, refcl chooses the
 * required work-group size, or a group along x that fills the vectors and
 * the compute units (compiled_local_choose).
 *
 * Where the specification leaves behaviour undefined, refcl refuses
 * (CL_INVALID_KERNEL_ARGS) rather than corrupt memory: a work-item that
 * would reach past the buffer or SVM allocation of an argument (or through
 * a NULL one), a __local argument too small for the work-group, a buffer
 * released since it was set, a pointer misaligned for its type.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/api.h"
#include "refcl/device.h"
#include "refcl/event.h"
#include "refcl/exec.h"
#include "refcl/image.h"
#include "refcl/kernel.h"
#include "refcl/kernel_abi.h"
#include "refcl/memory.h"
#include "refcl/program.h"
#include "refcl/queue.h"

/* The range as the application gave it. */
struct request {
    cl_uint dims;
    const size_t *offset;
    const size_t *global;
    const size_t *local;
};

/* Bytes of an argument the range reaches (0: none), SIZE_MAX if that does
 * not fit in a size_t. */
struct reach {
    void *ptr;
    size_t room;          /* bytes it may reach */
};

/* ---- the application's range ------------------------------------------- */

static size_t size_mul(size_t a, size_t b)
{
    size_t product;
    return __builtin_mul_overflow(a, b, &product) ? SIZE_MAX : product;
}

/* No size_t exceeds a size_t: the CL_INVALID_GLOBAL_WORK_SIZE of that
 * kind cannot happen, and a NULL or zero global size is no error for an
 * OpenCL 2.1 or newer device. */
static cl_int global_check(const struct request *req)
{
    if (req->dims < 1)
        return REFCL_FAIL(CL_INVALID_WORK_DIMENSION, "work_dim 0: "
                          "\"work_dim must be greater than zero\"");
    if (req->dims > 3)
        return REFCL_FAIL(CL_INVALID_WORK_DIMENSION, "work_dim %u: \"if "
                          "work_dim is not valid for the device ... (is "
                          "greater than the value returned for "
                          "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)\" (3)",
                          req->dims);
    for (cl_uint d = 0; req->global && req->offset && d < req->dims; d++)
        if (req->global[d] > SIZE_MAX - req->offset[d])
            return REFCL_FAIL(CL_INVALID_GLOBAL_OFFSET, "dimension %u: "
                              "\"if the value specified in global_work_size "
                              "plus the corresponding value in "
                              "global_work_offset for any dimensions is "
                              "greater than the maximum value representable "
                              "by size_t\"", d);
    return CL_SUCCESS;
}

/* Each dimension first: with every dimension at most the work-group
 * limit, either error can happen.
 * No built-in kernel requires a work-group size or a number of
 * sub-groups, and non-uniform work-groups are supported. */
static cl_int local_check(const struct request *req)
{
    if (!req->local)
        return CL_SUCCESS;
    size_t items = 1;
    for (cl_uint d = 0; d < req->dims; d++) {
        if (req->local[d] > REFCL_MAX_WORK_GROUP_SIZE)
            return REFCL_FAIL(CL_INVALID_WORK_ITEM_SIZE, "local_work_size[%u] "
                              "%zu: \"if the number of work-items specified "
                              "in any dimension of local_work_size is ... "
                              "greater than the corresponding value returned "
                              "for CL_DEVICE_MAX_WORK_ITEM_SIZES\" (%u)", d,
                              req->local[d], REFCL_MAX_WORK_GROUP_SIZE);
        items *= req->local[d]; /* at most 4096^3: no overflow */
    }
    if (items == 0)
        return REFCL_FAIL(CL_INVALID_WORK_GROUP_SIZE, "\"if the total number "
                          "of work-items in the work-group is zero\"");
    if (items > REFCL_MAX_WORK_GROUP_SIZE)
        return REFCL_FAIL(CL_INVALID_WORK_GROUP_SIZE, "%zu work-items: \"if "
                          "the total number of work-items in the work-group "
                          "is greater than ... CL_KERNEL_WORK_GROUP_SIZE\" "
                          "(%u)", items, REFCL_MAX_WORK_GROUP_SIZE);
    return CL_SUCCESS;
}

/* True if the range has no work-item: "If ... global_work_size is NULL or
 * the value in any passed dimension is zero, then the kernel command will
 * trivially succeed after its event dependencies are satisfied". */
static bool range_empty(const struct request *req)
{
    for (cl_uint d = 0; req->global && d < req->dims; d++)
        if (req->global[d] == 0)
            return true;
    return !req->global;
}

/* True if the executable that runs @p entry was built for uniform
 * work-groups (-cl-uniform-work-group-size, or OpenCL C 1.x). */
static bool uniform_groups(const struct _cl_kernel *kernel,
                           const struct refcl_abi_kernel *entry)
{
    const struct _cl_program *program = kernel->program;
    for (cl_uint i = 0; i < program->num_devices; i++)
        if (kernel->compiled->per_device[i] == entry)
            return refcl_program_run_options(program, i).uniform_work_groups;
    return true;
}

/* The size a compiled kernel's source requires of work-groups in
 * dimension @p d (0 if none; 1 past the dimensions it names). */
static size_t required_size(const struct refcl_abi_kernel *entry,
                            cl_uint d)
{
    return entry->reqd_work_group_size[0] ? entry->reqd_work_group_size[d]
                                          : 0;
}

/* The checks a compiled kernel's source adds to the range. */
static cl_int required_check(const struct refcl_abi_kernel *entry,
                             bool uniform, const struct request *req)
{
    for (cl_uint d = 0; d < 3; d++) {
        size_t required = required_size(entry, d);
        size_t local = req->local && d < req->dims ? req->local[d] : 1;
        bool given = req->local || d >= req->dims;
        if (required && given && local != required)
            return REFCL_FAIL(CL_INVALID_WORK_GROUP_SIZE, "dimension %u: "
                              "%zu work-items: \"if local_work_size is "
                              "specified and does not match the required "
                              "work-group size for kernel in the program "
                              "source\" (%zu)", d, local, required);
        if (!req->local)
            local = required;
        /* An empty range has no group to be uniform. */
        size_t global = req->global && d < req->dims ? req->global[d] : 1;
        if (uniform && local && !range_empty(req) && global % local != 0)
            return REFCL_FAIL(CL_INVALID_WORK_GROUP_SIZE, "dimension %u: "
                              "global %zu, local %zu: \"if the program was "
                              "compiled with cl-uniform-work-group-size and "
                              "the number of work-items specified by "
                              "global_work_size is not evenly divisible by "
                              "size of work-group given by local_work_size "
                              "or by the required work-group size specified "
                              "in the kernel source\"", d, global, local);
    }
    return CL_SUCCESS;
}

static cl_int args_set_check(const struct _cl_kernel *kernel)
{
    for (cl_uint i = 0; i < kernel->desc->num_args; i++)
        if (!kernel->args[i].set)
            return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "argument %u: \"if any "
                              "kernel arguments for kernel have not been "
                              "set\"", i);
    return CL_SUCCESS;
}

/* ---- the command ------------------------------------------------------- */

/* The work-items of a group that __local memory leaves room for, with no
 * local size given; 0 if an argument cannot hold even one. */
static size_t local_room(const struct refcl_launch *c,
                         const struct _cl_kernel *kernel)
{
    size_t most = REFCL_MAX_WORK_GROUP_SIZE;
    for (cl_uint i = 0; i < c->desc->num_args; i++) {
        const struct refcl_arg_desc *desc = &c->desc->args[i];
        size_t fits = kernel->args[i].local_size / desc->size;
        if (desc->extent == REFCL_EXTENT_GROUP_ITEMS && fits < most)
            most = fits;
    }
    return most;
}

/* Work-groups a range is cut into at least, per compute unit, when refcl
 * chooses the local size for a kernel whose work-items run loops of their
 * own (refcl-jam-items took its work-item loop): enough for the units to
 * even out, each group being worth a thread (refcl_launch_plan). */
#define GROUPS_PER_UNIT 4

/* The largest local size along x up to @p most that divides @p global,
 * a multiple of @p step if one does. */
static size_t uniform_local(size_t global, size_t most, size_t step)
{
    size_t divisor = 1;
    for (size_t local = most; local > 1; local--) {
        if (global % local != 0)
            continue;
        if (local % step == 0)
            return local;
        if (divisor == 1)
            divisor = local;
    }
    return divisor;
}

/* The local size of a compiled kernel given none: the required one, else
 * (L, 1, 1). L fills the vectors and the compute units: a multiple of the
 * work-items the kernel runs at a time; for a kernel with loops in its
 * work-items, small enough that the range has GROUPS_PER_UNIT groups per
 * compute unit where it is that large; else as large as the kernel's
 * limit; a divisor of the global size when groups must be uniform. */
static void compiled_local_choose(struct refcl_launch *c, bool uniform,
                                  const struct _cl_device_id *device)
{
    struct refcl_ndrange *r = &c->range;
    if (required_size(c->compiled, 0)) {
        for (cl_uint d = 0; d < 3; d++)
            r->local[d] = required_size(c->compiled, d);
        return;
    }
    size_t step = c->compiled->work_items_per_step
                      ? c->compiled->work_items_per_step
                      : REFCL_COMPILED_STEP_DEFAULT;
    size_t most = c->compiled->has_barrier ? REFCL_COMPILED_BARRIER_GROUP
                                           : REFCL_MAX_WORK_GROUP_SIZE;
    size_t rows = r->global[1] * r->global[2];
    size_t wanted = refcl_launch_group_per_piece(c)
                        ? (size_t)device->compute_units * GROUPS_PER_UNIT
                        : 1;
    size_t columns = rows >= wanted ? 1 : (wanted + rows - 1) / rows;
    size_t local = (r->global[0] + columns - 1) / columns;
    local = (local + step - 1) / step * step;
    if (local > most)
        local = most;
    if (local > r->global[0])
        local = r->global[0];
    r->local[0] = uniform ? uniform_local(r->global[0], local, step) : local;
}

/* The range's geometry, the local size chosen when none is given. */
static cl_int range_fill(struct refcl_launch *c,
                         const struct _cl_kernel *kernel, bool uniform,
                         const struct _cl_device_id *device,
                         const struct request *req)
{
    struct refcl_ndrange *r = &c->range;
    r->dims = req->dims;
    for (cl_uint d = 0; d < 3; d++) {
        bool used = d < req->dims;
        r->offset[d] = used && req->offset ? req->offset[d] : 0;
        r->global[d] = used ? req->global[d] : 1;
        r->local[d] = used && req->local ? req->local[d] : 1;
    }
    if (!req->local && c->compiled) {
        compiled_local_choose(c, uniform, device);
    } else if (!req->local) {
        /* "the OpenCL runtime may choose a uniform or non-uniform
         * work-group size": as many work-items along dimension 0 as the
         * kernel takes. */
        size_t most = local_room(c, kernel);
        if (most == 0)
            return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "a __local argument "
                              "too small for one work-item");
        r->local[0] = r->global[0] < most ? r->global[0] : most;
    }
    for (cl_uint d = 0; d < 3; d++) {
        r->groups[d] = r->global[d] / r->local[d] +
                       (r->global[d] % r->local[d] != 0);
        r->extent[d] = r->offset[d] + r->global[d];
    }
    return CL_SUCCESS;
}

/* Elements of an argument the range reaches; SIZE_MAX if past any size. */
static size_t reach_elements(const struct refcl_arg_desc *desc,
                             const struct refcl_ndrange *r)
{
    switch (desc->extent) {
    case REFCL_EXTENT_ITEMS:
        return size_mul(size_mul(r->extent[0], r->extent[1]), r->extent[2]);
    case REFCL_EXTENT_GROUPS:
        return size_mul(size_mul(r->groups[0], r->groups[1]), r->groups[2]);
    case REFCL_EXTENT_TABLE:
        return desc->table;
    case REFCL_EXTENT_GROUP_ITEMS:
        return r->local[0] * r->local[1] * r->local[2];
    default:
        return 0;
    }
}

/* A __global or __constant argument: its address and the bytes it may
 * reach, from the buffer or SVM allocation it points to. */
static cl_int pointer_arg(struct refcl_launch *c,
                          const struct _cl_kernel *kernel, cl_uint i,
                          struct reach *reach)
{
    const struct refcl_kernel_arg *arg = &kernel->args[i];
    const struct _cl_context *context = kernel->context;
    *reach = (struct reach){arg->value.ptr, 0};
    if (arg->svm) {
        reach->room = reach->ptr ? refcl_kernel_svm_room(context, reach->ptr)
                                 : 0;
        return CL_SUCCESS;
    }
    if (!arg->mem)
        return CL_SUCCESS;
    /* Released since it was set: the application's error, refused. */
    if (!refcl_object_valid(arg->mem, REFCL_MEM) ||
        arg->mem->context != context)
        return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "argument %u: a cl_mem "
                          "released since it was set", i);
    if (refcl_kernel_buffer_misaligned(arg->mem))
        return REFCL_FAIL(CL_MISALIGNED_SUB_BUFFER_OFFSET, "argument %u: \"if "
                          "a kernel argument for kernel is a sub-buffer "
                          "object and the offset specified when the "
                          "sub-buffer object is created is not aligned to "
                          "CL_DEVICE_MEM_BASE_ADDR_ALIGN\"", i);
    /* The bytes of an import of read-only memory are never written
     * (refcl/memory.h): a kernel that writes its argument is refused as
     * the memory commands that write are. */
    const struct refcl_arg_desc *desc = &c->desc->args[i];
    if (desc->kind == REFCL_ARG_GLOBAL &&
        !(desc->qualifier & CL_KERNEL_ARG_TYPE_CONST) &&
        refcl_mem_writable(arg->mem) != CL_SUCCESS)
        return REFCL_FAIL(CL_INVALID_OPERATION, "argument %u: a buffer of "
                          "read-only memory the kernel writes", i);
    /* A buffer's storage is allocated by its first use. */
    reach->ptr = refcl_mem_address(arg->mem);
    if (!reach->ptr)
        return REFCL_FAIL(CL_MEM_OBJECT_ALLOCATION_FAILURE, "argument %u: "
                          "\"if there is a failure to allocate memory for "
                          "data store associated with image or buffer "
                          "objects specified as arguments to kernel\"", i);
    reach->room = refcl_mem_size(arg->mem);
    /* "If the argument is declared with the constant qualifier, the size
     * in bytes of the memory object cannot exceed
     * CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE": the kernel cannot run, for want
     * of the device's resources (CL_OUT_OF_RESOURCES). */
    if (c->desc->args[i].kind == REFCL_ARG_CONSTANT &&
        reach->room > REFCL_MAX_CONSTANT_BUFFER_SIZE)
        return REFCL_FAIL(CL_OUT_OF_RESOURCES, "argument %u: a __constant "
                          "buffer of %zu bytes; \"the size in bytes of the "
                          "memory object cannot exceed "
                          "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE\"", i,
                          reach->room);
    c->held[i] = arg->mem;
    return CL_SUCCESS;
}

/* The struct refcl_abi_image of image @p mem whose bytes start at
 * @p data: what compiled code reads of it. */
static void image_describe(const struct _cl_mem *mem, void *data,
                           struct refcl_abi_image *out)
{
    const struct refcl_image *s = refcl_image_of(mem);
    bool one_d_array = mem->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    /* A 1D array's layer is its second coordinate: its row. */
    *out = (struct refcl_abi_image){
        .data = data,
        .row_pitch = one_d_array ? s->slice_pitch : s->row_pitch,
        .slice_pitch = s->slice_pitch,
        .width = (uint32_t)s->width,
        .height = (uint32_t)s->height,
        .depth = (uint32_t)s->depth,
        .array_size = (uint32_t)s->layers,
        .channel_data_type = s->format.image_channel_data_type,
        .channel_order = s->format.image_channel_order,
        .element_size = (uint32_t)s->element_size,
        .num_channels = s->channels,
        .type = mem->type,
    };
}

/* An image argument: the image still there, its bytes made, its
 * descriptor filled in the command's copy, the image held. */
static cl_int image_take(struct refcl_launch *c,
                         const struct _cl_kernel *kernel, cl_uint i)
{
    struct _cl_mem *mem = kernel->args[i].mem;
    if (!refcl_object_valid(mem, REFCL_MEM) ||
        mem->context != kernel->context)
        return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "argument %u: an image "
                          "released since it was set", i);
    if (c->desc->args[i].access != CL_KERNEL_ARG_ACCESS_READ_ONLY &&
        refcl_mem_writable(mem) != CL_SUCCESS)
        return REFCL_FAIL(CL_INVALID_OPERATION, "argument %u: an image of "
                          "read-only memory the kernel writes", i);
    void *bytes = refcl_mem_address(mem);
    if (!bytes)
        return REFCL_FAIL(CL_MEM_OBJECT_ALLOCATION_FAILURE, "argument %u: "
                          "\"if there is a failure to allocate memory for "
                          "data store associated with image or buffer "
                          "objects specified as arguments to kernel\"", i);
    image_describe(mem, bytes, c->args[i].ptr);
    c->held[i] = mem;
    return CL_SUCCESS;
}

/* Takes the snapshot of argument @p i, checking that every work-item
 * stays within what it points to. */
static cl_int arg_take(struct refcl_launch *c,
                       const struct _cl_kernel *kernel, cl_uint i)
{
    const struct refcl_arg_desc *desc = &c->desc->args[i];
    const struct refcl_kernel_arg *arg = &kernel->args[i];
    size_t need = size_mul(reach_elements(desc, &c->range), desc->size);
    struct reach reach = {NULL, 0};
    switch (desc->kind) {
    case REFCL_ARG_IMAGE:
        return image_take(c, kernel, i);
    case REFCL_ARG_SAMPLER:
        c->args[i] = arg->value;
        return CL_SUCCESS;
    case REFCL_ARG_SCALAR:
        if (refcl_arg_inline(desc))
            c->args[i] = arg->value;
        else
            memcpy(c->args[i].ptr, arg->value.ptr, desc->size);
        return CL_SUCCESS;
    case REFCL_ARG_LOCAL:
        /* A __local argument smaller than the work-group needs. */
        if (need > arg->local_size)
            return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "argument %u: a "
                              "__local size of %zu bytes, %zu needed", i,
                              arg->local_size, need);
        c->local_at[i] = c->scratch;
        /* Each __local argument aligned as every allocation is. */
        c->scratch += (arg->local_size + REFCL_MEM_BASE_ALIGN - 1) /
                      REFCL_MEM_BASE_ALIGN * REFCL_MEM_BASE_ALIGN;
        return CL_SUCCESS;
    default: {
        cl_int status = pointer_arg(c, kernel, i, &reach);
        if (status != CL_SUCCESS)
            return status;
        /* Past the end, through NULL, or misaligned for its type. */
        if (need > reach.room)
            return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "argument %u: %zu "
                              "bytes reached, %zu there", i, need,
                              reach.room);
        if ((uintptr_t)reach.ptr % desc->size != 0)
            return REFCL_FAIL(CL_INVALID_KERNEL_ARGS, "argument %u: "
                              "misaligned for its %zu-byte type", i,
                              desc->size);
        c->args[i].ptr = reach.ptr;
        return CL_SUCCESS;
    }
    }
}

/* How a finished command lets go of its kernel (struct refcl_launch). */
static void kernel_let_go(struct refcl_object *kernel)
{
    refcl_kernel_release((struct _cl_kernel *)kernel);
}

/* The command for @p kernel over @p req on @p queue's device: the
 * arguments taken, the buffers and the kernel held. */
static cl_int command_make(struct _cl_kernel *kernel,
                           const struct refcl_abi_kernel *entry, bool uniform,
                           const struct _cl_device_id *device,
                           const struct request *req,
                           struct refcl_launch **out)
{
    struct refcl_launch *c = refcl_launch_alloc(kernel->desc);
    if (!c)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    c->compiled = entry;
    cl_int status = range_fill(c, kernel, uniform, device, req);
    for (cl_uint i = 0; status == CL_SUCCESS && i < c->desc->num_args;
         i++)
        status = arg_take(c, kernel, i);
    size_t local_total = c->scratch + refcl_launch_kernel_local_bytes(c);
    if (status == CL_SUCCESS && local_total > refcl_local_mem_size())
        status = REFCL_FAIL(CL_OUT_OF_RESOURCES, "%zu bytes of __local "
                            "memory: \"insufficient resources needed to "
                            "execute the kernel ... such as ... local "
                            "memory\"", local_total);
    if (status == CL_SUCCESS && entry && entry->uses_printf &&
        !(c->printf_buffer = refcl_printf_alloc()))
        /* "CL_OUT_OF_HOST_MEMORY if there is a failure to allocate
         * resources required by the OpenCL implementation on the host." */
        status = REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the "
                            "kernel's printf buffer");
    if (status != CL_SUCCESS) {
        free(c);
        return status;
    }
    refcl_object_retain(&kernel->obj);
    c->owner = &kernel->obj;
    c->owner_release = kernel_let_go;
    for (cl_uint i = 0; i < c->desc->num_args; i++)
        if (c->held[i])
            refcl_mem_retain(c->held[i]);
    refcl_launch_plan(c, device);
    *out = c;
    return CL_SUCCESS;
}

/* An empty range: no work, but its place in the queue and its event. Not
 * a marker: "an enqueued kernel with no events passed to event_wait_list
 * may run at any time". */
static cl_int nothing_run(void *payload, struct _cl_command_queue *queue)
{
    (void)payload;
    (void)queue;
    return CL_COMPLETE;
}

static const struct refcl_command_ops nothing_ops = {.run = nothing_run};

/* ---- the entry points ------------------------------------------------ */

/* The checks of both entry points, in the order the specification lists
 * them (docs/runtime.md: wait lists after the range); then the command. */
static cl_int enqueue(cl_command_queue queue, cl_kernel kernel,
                      cl_command_type type, const struct request *req,
                      cl_uint num_events, const cl_event *wait_list,
                      cl_event *event)
{
    if (!refcl_object_valid(queue, REFCL_QUEUE))
        return refcl_invalid_handle(queue, REFCL_QUEUE);
    if (!refcl_object_valid(kernel, REFCL_KERNEL))
        return refcl_invalid_handle(kernel, REFCL_KERNEL);
    const struct refcl_abi_kernel *entry =
        kernel->compiled ? refcl_compiled_on(kernel->compiled,
                                             kernel->program, queue->device)
                         : NULL;
    if (kernel->compiled ? !entry
                         : !refcl_program_runs_on(kernel->program,
                                                  queue->device))
        return REFCL_FAIL(CL_INVALID_PROGRAM_EXECUTABLE, "\"if there is no "
                          "successfully built program executable available "
                          "for the device associated with command_queue\"");
    if (kernel->context != queue->context)
        return REFCL_FAIL(CL_INVALID_CONTEXT, "\"if the context associated "
                          "with command_queue and kernel are not the "
                          "same\"");
    cl_int status = args_set_check(kernel);
    if (status == CL_SUCCESS)
        status = global_check(req);
    if (status == CL_SUCCESS)
        status = local_check(req);
    bool uniform = entry && uniform_groups(kernel, entry);
    if (status == CL_SUCCESS && entry)
        status = required_check(entry, uniform, req);
    if (status == CL_SUCCESS)
        status = refcl_wait_list_check(queue->context, num_events, wait_list);
    if (status != CL_SUCCESS)
        return status;

    struct refcl_command command = {
        .type = type,
        .num_events = num_events,
        .wait_list = wait_list,
        .ops = &nothing_ops,
    };
    if (!range_empty(req)) {
        struct refcl_launch *c = NULL;
        status = command_make(kernel, entry, uniform, queue->device, req,
                              &c);
        if (status != CL_SUCCESS)
            return status;
        command.ops = &refcl_launch_ops;
        command.payload = c;
    }
    return refcl_executor_enqueue(queue, &command, event);
}

cl_int CL_API_CALL refcl_clEnqueueNDRangeKernel(
    cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_events,
    const cl_event *wait_list, cl_event *event)
{
    const struct request req = {work_dim, global_work_offset,
                                global_work_size, local_work_size};
    return enqueue(queue, kernel, CL_COMMAND_NDRANGE_KERNEL, &req, num_events,
                   wait_list, event);
}

/* "clEnqueueTask is equivalent to calling clEnqueueNDRangeKernel with
 * work_dim set to 1, global_work_offset set to NULL, global_work_size[0]
 * set to 1, and local_work_size[0] set to 1"; its event says
 * CL_COMMAND_TASK. */
cl_int CL_API_CALL refcl_clEnqueueTask(cl_command_queue queue,
                                       cl_kernel kernel, cl_uint num_events,
                                       const cl_event *wait_list,
                                       cl_event *event)
{
    static const size_t one = 1;
    const struct request req = {1, NULL, &one, &one};
    return enqueue(queue, kernel, CL_COMMAND_TASK, &req, num_events,
                   wait_list, event);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clEnqueueNDRangeKernel and clEnqueueTask: every check of OpenCL 3.0,
 * then a command that runs the kernel over the range, spread over the
 * compute units of the queue's device (refcl_device_run).
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
 * Compiled kernels (docs/kernels.md) run work-group by work-group through
 * their executable's `run`, each piece with one block of its own for the
 * kernel's __local variables, its __local arguments and the work-items'
 * frames, reused from group to group. Their pointers have no known extent:
 * they get the address, unchecked. With no local size, refcl chooses the
 * required work-group size, or a large group along x (the pass vectorizes
 * that loop), smaller for kernels with barriers, dividing the global size
 * where groups must be uniform. A fault in a work-group ends the command
 * with CL_OUT_OF_RESOURCES, as an abnormally terminated kernel, and is
 * reported to the context's pfn_notify: the kernel, the signal, the
 * address and the work-group.
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
#include "refcl/context.h"
#include "refcl/device.h"
#include "refcl/event.h"
#include "refcl/kernel.h"
#include "refcl/kernel_abi.h"
#include "refcl/memory.h"
#include "refcl/program.h"
#include "refcl/queue.h"
#include "refcl/workers.h"

/* Pieces a command is cut into per compute unit: enough for the units to
 * even out, few enough that each is long. */
#define PIECES_PER_UNIT 4
/* Work-items a piece runs at least: a piece shorter than this costs more
 * to hand to another thread than it takes to run. */
#define MIN_PIECE_ITEMS 16384

/* The range as the application gave it. */
struct request {
    cl_uint dims;
    const size_t *offset;
    const size_t *global;
    const size_t *local;
};

/* A kernel-instance, ready to run. */
struct ndrange_command {
    struct _cl_kernel *kernel;   /* held */
    const struct refcl_builtin *desc;
    /** A compiled kernel: its entry in the executable of the device. */
    const struct refcl_abi_kernel *compiled;
    struct refcl_ndrange range;
    /* One entry per argument of the kernel, after the command itself. */
    union refcl_arg_value *args; /* as the code sees them */
    struct _cl_mem **held;       /* buffers, or NULL */
    size_t *local_at;            /* __local: scratch offset */
    size_t scratch;       /* __local bytes of one work-group */
    size_t work;          /* items (element-wise) or work-groups */
    size_t per_piece;     /* of work */
    size_t pieces;
    atomic_bool out_of_memory; /* a piece could not get its scratch */
    atomic_bool faulted;       /* a compiled work-group faulted */
    struct refcl_kernel_fault fault;  /* the first fault, once faulted */
    size_t fault_group;        /* the work-group it was in */
    /** Its work-items' printf records, if the kernel calls printf. */
    struct refcl_abi_printf *printf_buffer;
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
static size_t local_room(const struct ndrange_command *c)
{
    size_t most = REFCL_MAX_WORK_GROUP_SIZE;
    for (cl_uint i = 0; i < c->desc->num_args; i++) {
        const struct refcl_builtin_arg *desc = &c->desc->args[i];
        size_t fits = c->kernel->args[i].local_size / desc->size;
        if (desc->extent == REFCL_EXTENT_GROUP_ITEMS && fits < most)
            most = fits;
    }
    return most;
}

/* The local size of a compiled kernel given none: the required one, else
 * (L, 1, 1), L the largest size up to the kernel's limit along x (a
 * divisor of the global size when groups must be uniform). */
static void compiled_local_choose(struct ndrange_command *c, bool uniform)
{
    struct refcl_ndrange *r = &c->range;
    if (required_size(c->compiled, 0)) {
        for (cl_uint d = 0; d < 3; d++)
            r->local[d] = required_size(c->compiled, d);
        return;
    }
    size_t most = c->compiled->has_barrier ? REFCL_COMPILED_BARRIER_GROUP
                                           : REFCL_MAX_WORK_GROUP_SIZE;
    size_t local = r->global[0] < most ? r->global[0] : most;
    while (uniform && r->global[0] % local != 0)
        local--;
    r->local[0] = local;
}

/* The range's geometry, the local size chosen when none is given. */
static cl_int range_fill(struct ndrange_command *c, bool uniform,
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
        compiled_local_choose(c, uniform);
    } else if (!req->local) {
        /* "the OpenCL runtime may choose a uniform or non-uniform
         * work-group size": as many work-items along dimension 0 as the
         * kernel takes. */
        size_t most = local_room(c);
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
static size_t reach_elements(const struct refcl_builtin_arg *desc,
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
static cl_int pointer_arg(struct ndrange_command *c, cl_uint i,
                          struct reach *reach)
{
    const struct refcl_kernel_arg *arg = &c->kernel->args[i];
    const struct _cl_context *context = c->kernel->context;
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
    const struct refcl_builtin_arg *desc = &c->desc->args[i];
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

/* Takes the snapshot of argument @p i, checking that every work-item
 * stays within what it points to. */
static cl_int arg_take(struct ndrange_command *c, cl_uint i)
{
    const struct refcl_builtin_arg *desc = &c->desc->args[i];
    const struct refcl_kernel_arg *arg = &c->kernel->args[i];
    size_t need = size_mul(reach_elements(desc, &c->range), desc->size);
    struct reach reach = {NULL, 0};
    switch (desc->kind) {
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
        cl_int status = pointer_arg(c, i, &reach);
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

/* Cuts the work into pieces for the device's compute units. The products
 * fit in a size_t: every kernel has an argument that reaches one element
 * per work-item, and arg_take has checked that a buffer holds them. */
static void pieces_plan(struct ndrange_command *c,
                        const struct _cl_device_id *device)
{
    const struct refcl_ndrange *r = &c->range;
    size_t group_items = r->local[0] * r->local[1] * r->local[2];
    size_t min_work = MIN_PIECE_ITEMS;
    c->work = r->global[0] * r->global[1] * r->global[2];
    if (c->desc->group || c->compiled) {
        c->work = r->groups[0] * r->groups[1] * r->groups[2];
        min_work = (MIN_PIECE_ITEMS + group_items - 1) / group_items;
    }
    size_t target = (size_t)device->compute_units * PIECES_PER_UNIT;
    size_t per_piece = (c->work + target - 1) / target;
    c->per_piece = per_piece > min_work ? per_piece : min_work;
    c->pieces = (c->work + c->per_piece - 1) / c->per_piece;
}

static void command_free(struct ndrange_command *c)
{
    for (cl_uint i = 0; i < c->desc->num_args; i++)
        if (c->held[i])
            refcl_mem_release(c->held[i]);
    refcl_kernel_release(c->kernel);
    refcl_printf_free(c->printf_buffer);
    free(c);
}

static size_t round_up(size_t bytes, size_t align)
{
    return (bytes + align - 1) / align * align;
}

/* Bytes of a command for @p builtin: the command, its entries per
 * argument, then the copies of by-value arguments over 8 bytes; with
 * @p c, points the entries to their places in it. */
static size_t command_layout(const struct refcl_builtin *builtin,
                             struct ndrange_command *c)
{
    size_t n = builtin->num_args;
    size_t at_args = round_up(sizeof(*c), sizeof(union refcl_arg_value));
    size_t at_held = at_args + n * sizeof(*c->args);
    size_t at_local = at_held + n * sizeof(*c->held);
    size_t end = at_local + n * sizeof(*c->local_at);
    unsigned char *base = (unsigned char *)c;
    unsigned char *copies = c ? refcl_arg_copies_start(base + end) : NULL;
    if (c) {
        c->args = (union refcl_arg_value *)(base + at_args);
        c->held = (struct _cl_mem **)(base + at_held);
        c->local_at = (size_t *)(base + at_local);
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const struct refcl_builtin_arg *desc = &builtin->args[i];
        if (refcl_arg_inline(desc))
            continue;
        size_t here = refcl_arg_place(&at, desc->size);
        if (c)
            c->args[i].ptr = copies + here;
    }
    return at ? end + REFCL_ARG_ALIGN_MAX - 1 + at : end;
}

/* The bytes of a compiled kernel's own __local variables, rounded up so
 * that what follows them stays aligned; 0 for a built-in kernel. */
static size_t kernel_local_bytes(const struct ndrange_command *c)
{
    return c->compiled ? round_up(c->compiled->local_bytes, REFCL_ABI_ALIGN)
                       : 0;
}

/* A zeroed command for @p kernel, sized by its arguments, or NULL
 * (malloc and memset: glibc's calloc skips the thread cache). */
static struct ndrange_command *command_alloc(struct _cl_kernel *kernel)
{
    size_t bytes = command_layout(kernel->desc, NULL);
    struct ndrange_command *c = malloc(bytes);
    if (!c)
        return NULL;
    memset(c, 0, bytes);
    command_layout(kernel->desc, c);
    c->kernel = kernel;
    c->desc = kernel->desc;
    return c;
}

/* The command for @p kernel over @p req on @p queue's device: the
 * arguments taken, the buffers and the kernel held. */
static cl_int command_make(struct _cl_kernel *kernel,
                           const struct refcl_abi_kernel *entry, bool uniform,
                           const struct _cl_device_id *device,
                           const struct request *req,
                           struct ndrange_command **out)
{
    struct ndrange_command *c = command_alloc(kernel);
    if (!c)
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    c->compiled = entry;
    cl_int status = range_fill(c, uniform, req);
    for (cl_uint i = 0; status == CL_SUCCESS && i < c->desc->num_args;
         i++)
        status = arg_take(c, i);
    size_t local_total = c->scratch + kernel_local_bytes(c);
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
    for (cl_uint i = 0; i < c->desc->num_args; i++)
        if (c->held[i])
            refcl_mem_retain(c->held[i]);
    pieces_plan(c, device);
    *out = c;
    return CL_SUCCESS;
}

/* ---- running ------------------------------------------------------------ */

/* Items [first, first + count) of an element-wise kernel, in row-major
 * order over the global range, as rows of elements. */
static void items_run(const struct ndrange_command *c, size_t first,
                      size_t count)
{
    const struct refcl_ndrange *r = &c->range;
    size_t row = first / r->global[0];
    size_t column = first % r->global[0];
    while (count) {
        size_t y = r->offset[1] + row % r->global[1];
        size_t z = r->offset[2] + row / r->global[1];
        size_t base = r->offset[0] + column + r->extent[0] *
                                                  (y + r->extent[1] * z);
        size_t length = r->global[0] - column;
        length = length < count ? length : count;
        c->desc->items(c->args, base, length);
        count -= length;
        column = 0;
        row++;
    }
}

static void items_piece(void *arg, size_t index)
{
    const struct ndrange_command *c = arg;
    size_t first = index * c->per_piece;
    size_t left = c->work - first;
    items_run(c, first, left < c->per_piece ? left : c->per_piece);
}

/* Work-group @p id of the range. */
static struct refcl_group group_at(const struct refcl_ndrange *r, size_t id)
{
    struct refcl_group g = {.range = r, .id = id};
    size_t rest = id;
    for (cl_uint d = 0; d < 3; d++) {
        size_t index = rest % r->groups[d];
        size_t start = index * r->local[d];
        rest /= r->groups[d];
        g.origin[d] = r->offset[d] + start;
        g.size[d] = r->global[d] - start < r->local[d] ? r->global[d] - start
                                                       : r->local[d];
    }
    return g;
}

/* The piece's own __local memory and, after it, its own argument values
 * pointing there; NULL when out of memory. Freed with free(). */
static void *scratch_alloc(const struct ndrange_command *c,
                           union refcl_arg_value **args)
{
    size_t n = c->desc->num_args;
    size_t at_args = round_up(c->scratch, REFCL_MEM_BASE_ALIGN);
    size_t bytes = round_up(at_args + n * sizeof(**args),
                            REFCL_MEM_BASE_ALIGN);
    unsigned char *scratch = aligned_alloc(REFCL_MEM_BASE_ALIGN, bytes);
    if (!scratch)
        return NULL;
    *args = (union refcl_arg_value *)(scratch + at_args);
    memcpy(*args, c->args, n * sizeof(**args));
    for (size_t i = 0; i < n; i++)
        if (c->desc->args[i].kind == REFCL_ARG_LOCAL)
            (*args)[i].ptr = scratch + c->local_at[i];
    return scratch;
}

/* Work-groups of a work-group kernel, each with __local memory of the
 * piece's own, reused from group to group as a compute unit would. */
static void groups_piece(void *arg, size_t index)
{
    struct ndrange_command *c = arg;
    union refcl_arg_value *args = c->args;
    void *scratch = NULL;
    if (c->scratch && !(scratch = scratch_alloc(c, &args))) {
        atomic_store(&c->out_of_memory, true);
        return;
    }
    size_t first = index * c->per_piece;
    size_t end = first + c->per_piece < c->work ? first + c->per_piece
                                                : c->work;
    for (size_t id = first; id < end; id++) {
        struct refcl_group group = group_at(&c->range, id);
        c->desc->group(args, &group);
    }
    free(scratch);
}

/* The memory of one piece of a compiled kernel, and where it is. */
struct compiled_piece {
    const struct ndrange_command *c;
    size_t first, end;             /* its work-groups */
    void *local_mem;               /* the kernel's __local variables */
    void *frames;                  /* the work-items' frames, or NULL */
    union refcl_arg_value *args;   /* __local arguments pointing here */
    size_t group;                  /* the work-group running */
};

/* One block for @p p: the kernel's __local variables, the __local
 * arguments (c->scratch), the frames of a whole group, then the argument
 * values; NULL when out of memory. Freed with free(). */
static void *compiled_alloc(struct compiled_piece *p)
{
    const struct ndrange_command *c = p->c;
    const struct refcl_ndrange *r = &c->range;
    size_t n = c->desc->num_args;
    size_t at_scratch = kernel_local_bytes(c);
    size_t at_frames = at_scratch + round_up(c->scratch, REFCL_ABI_ALIGN);
    size_t frames = c->compiled->frame_bytes * r->local[0] * r->local[1] *
                    r->local[2];
    size_t at_args = at_frames + round_up(frames, REFCL_ABI_ALIGN);
    size_t bytes = round_up(at_args + n * sizeof(*p->args), REFCL_ABI_ALIGN);
    unsigned char *block = aligned_alloc(REFCL_ABI_ALIGN, bytes);
    if (!block)
        return NULL;
    p->local_mem = block;
    p->frames = frames ? block + at_frames : NULL;
    p->args = (union refcl_arg_value *)(block + at_args);
    memcpy(p->args, c->args, n * sizeof(*p->args));
    for (size_t i = 0; i < n; i++)
        if (c->desc->args[i].kind == REFCL_ARG_LOCAL)
            p->args[i].ptr = block + at_scratch + c->local_at[i];
    return block;
}

/* The parts of work-group @p id of @p r that change from group to group. */
static void abi_group_at(struct refcl_abi_group *g,
                         const struct refcl_ndrange *r, size_t id)
{
    for (cl_uint d = 0; d < 3; d++) {
        size_t index = id % r->groups[d];
        size_t start = index * r->local[d];
        id /= r->groups[d];
        g->group_id[d] = index;
        g->local_size[d] = r->global[d] - start < r->local[d]
                               ? r->global[d] - start
                               : r->local[d];
    }
}

/* The work-groups of a piece, through the kernel's `run`: the body that
 * refcl_fault_catch guards. */
static void compiled_groups(void *arg)
{
    struct compiled_piece *p = arg;
    const struct refcl_ndrange *r = &p->c->range;
    struct refcl_abi_group g = {.work_dim = r->dims,
                                .local_mem = p->local_mem,
                                .frames = p->frames,
                                .printf_buffer = p->c->printf_buffer};
    for (cl_uint d = 0; d < 3; d++) {
        g.global_offset[d] = r->offset[d];
        g.global_size[d] = r->global[d];
        g.enqueued_local_size[d] = r->local[d];
        g.num_groups[d] = r->groups[d];
    }
    refcl_abi_run *run = p->c->compiled->run;
    const refcl_abi_slot *slots = (const refcl_abi_slot *)p->args;
    for (size_t id = p->first; id < p->end; id++) {
        abi_group_at(&g, r, id);
        p->group = id;
        run(slots, &g);
    }
}

/* Work-groups of a compiled kernel; none once a piece has faulted (the
 * command has failed). */
static void compiled_piece(void *arg, size_t index)
{
    struct ndrange_command *c = arg;
    if (atomic_load_explicit(&c->faulted, memory_order_relaxed))
        return;
    struct compiled_piece p = {.c = c, .first = index * c->per_piece};
    p.end = c->work - p.first < c->per_piece ? c->work
                                             : p.first + c->per_piece;
    void *block = compiled_alloc(&p);
    if (!block) {
        atomic_store(&c->out_of_memory, true);
        return;
    }
    struct refcl_kernel_fault fault;
    if (!refcl_fault_catch(compiled_groups, &p, &fault) &&
        !atomic_exchange(&c->faulted, true)) {
        c->fault = fault;
        c->fault_group = p.group;
    }
    free(block);
}

/* "kernel 'oob': SIGSEGV at address 0x10 in work-group (3, 0, 0)", to the
 * pfn_notify of the queue's context. */
static void fault_report(const struct ndrange_command *c,
                         struct _cl_command_queue *queue)
{
    struct refcl_abi_group g;
    abi_group_at(&g, &c->range, c->fault_group);
    refcl_context_notify(queue->context,
                         "kernel '%s': %s at address %p in work-group (%llu, "
                         "%llu, %llu)", c->desc->name,
                         refcl_fault_signal_name(c->fault.signal),
                         c->fault.address,
                         (unsigned long long)g.group_id[0],
                         (unsigned long long)g.group_id[1],
                         (unsigned long long)g.group_id[2]);
}

static cl_int ndrange_run(void *payload, struct _cl_command_queue *queue)
{
    struct ndrange_command *c = payload;
    refcl_device_run(queue->device, c->pieces,
                     c->compiled         ? compiled_piece
                     : c->desc->group ? groups_piece
                                         : items_piece,
                     c);
    /* "When the event that is associated with a particular kernel
     * invocation is completed, the output of all printf() calls executed
     * by this kernel invocation is flushed to the implementation-defined
     * output stream": every piece has joined, the event is not yet
     * complete. */
    if (c->printf_buffer)
        refcl_printf_flush(c->printf_buffer, stdout);
    if (atomic_load(&c->faulted))
        fault_report(c, queue);
    /* A piece without its __local memory did not run, a faulting one did
     * not finish: the command ends with the error, as an abnormally
     * terminated kernel does. */
    return atomic_load(&c->out_of_memory) || atomic_load(&c->faulted)
               ? CL_OUT_OF_RESOURCES
               : CL_COMPLETE;
}

static void ndrange_release(void *payload)
{
    command_free(payload);
}

static const struct refcl_command_ops ndrange_ops = {
    .run = ndrange_run, .release = ndrange_release};

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
        struct ndrange_command *c = NULL;
        status = command_make(kernel, entry, uniform, queue->device, req,
                              &c);
        if (status != CL_SUCCESS)
            return status;
        command.ops = &ndrange_ops;
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

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The value space of a check's calls. A real call is performed by refcl on
 * the checker's objects, so its values stay within what refcl performs
 * safely (sizes and offsets within the 256-byte buffers and scratch areas,
 * bits refcl either honours or refuses); a forced call is not performed, so
 * it takes any value: every bit of a bitfield, integers of every magnitude
 * up to all-ones, and seeded random numbers.
 */
#include <string.h>

#include "values.h"

void random_start(struct random *random, cl_ulong seed, const char *id)
{
    cl_ulong hash = 0xcbf29ce484222325u; /* FNV-1a of the check's name */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        hash = (hash ^ *p) * 0x100000001b3u;
    random->state = seed ^ hash;
}

cl_ulong random_next(struct random *random)
{
    cl_ulong z = (random->state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

cl_ulong values_truncate(cl_ulong value, size_t size)
{
    return size >= sizeof(cl_ulong) ? value
                                    : value & ((1ull << (8 * size)) - 1);
}

bool values_tied(const struct entry *entry, int index)
{
    for (int i = 0; i < entry->num_params; i++)
        if (entry->params[i].count == index)
            return true;
    return false;
}

/* ---- what a real call passes by default ---- */

struct typed_value {
    const char *type;
    cl_ulong value;
};

/* Values refcl accepts, by parameter type. */
static const struct typed_value real_values[] = {
    {"cl_device_info", CL_DEVICE_NAME},
    {"cl_platform_info", CL_PLATFORM_NAME},
    {"cl_context_info", CL_CONTEXT_REFERENCE_COUNT},
    {"cl_command_queue_info", CL_QUEUE_REFERENCE_COUNT},
    {"cl_mem_info", CL_MEM_SIZE},
    {"cl_image_info", CL_IMAGE_ELEMENT_SIZE},
    {"cl_pipe_info", CL_PIPE_PACKET_SIZE},
    {"cl_sampler_info", CL_SAMPLER_REFERENCE_COUNT},
    {"cl_program_info", CL_PROGRAM_REFERENCE_COUNT},
    {"cl_program_build_info", CL_PROGRAM_BUILD_STATUS},
    {"cl_kernel_info", CL_KERNEL_REFERENCE_COUNT},
    {"cl_kernel_arg_info", CL_KERNEL_ARG_NAME},
    {"cl_kernel_work_group_info", CL_KERNEL_WORK_GROUP_SIZE},
    {"cl_kernel_sub_group_info", CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE},
    {"cl_kernel_exec_info", CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM},
    {"cl_event_info", CL_EVENT_REFERENCE_COUNT},
    {"cl_profiling_info", CL_PROFILING_COMMAND_QUEUED},
    {"cl_gl_texture_info", CL_GL_TEXTURE_TARGET},
    {"cl_gl_context_info", CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR},
    {"cl_device_type", CL_DEVICE_TYPE_ALL},
    {"cl_mem_flags", CL_MEM_READ_WRITE},
    {"cl_svm_mem_flags", CL_MEM_READ_WRITE},
    {"cl_map_flags", CL_MAP_READ},
    {"cl_mem_migration_flags", CL_MIGRATE_MEM_OBJECT_HOST},
    {"cl_command_queue_properties", 0},
    {"cl_bool", CL_TRUE},
    {"cl_mem_object_type", CL_MEM_OBJECT_IMAGE2D},
    {"cl_addressing_mode", CL_ADDRESS_NONE},
    {"cl_filter_mode", CL_FILTER_NEAREST},
    {"cl_buffer_create_type", CL_BUFFER_CREATE_TYPE_REGION},
    {"cl_int", CL_COMPLETE}, /* execution statuses */
    {"cl_GLenum", 0x0DE1},   /* GL_TEXTURE_2D */
};

struct named_value {
    const char *part; /* a substring of the parameter's name */
    cl_ulong value;
};

/* ... and by name, for counts and sizes that are not tied to a list. */
static const struct named_value real_named[] = {
    {"work_dim", 1},     {"offset", 0},     {"pitch", 0},
    {"alignment", 0},    {"arg_index", 0},  {"spec_id", 0},
    {"arg_size", sizeof(cl_mem)},           {"spec_size", 4},
    {"pattern_size", 4}, {"packet_size", 4}, {"miplevel", 0},
    {"plane", 0},        {"arg_indx", 0},   {"num_", 0},
};

static cl_ulong real_default(const struct param *param)
{
    for (size_t i = 0; i < sizeof(real_named) / sizeof(real_named[0]); i++)
        if (strstr(param->name, real_named[i].part))
            return real_named[i].value;
    for (size_t i = 0; i < sizeof(real_values) / sizeof(real_values[0]); i++)
        if (!strcmp(param->type, real_values[i].type))
            return real_values[i].value;
    return strcmp(param->type, "size_t") == 0 ? 16 : 1;
}

/* ---- the choices ---- */

static bool is_bitfield(const struct param *param)
{
    size_t length = strlen(param->type);
    return !strcmp(param->type, "cl_device_type") ||
           !strcmp(param->type, "cl_bitfield") ||
           (length > 6 && !strcmp(param->type + length - 6, "_flags")) ||
           (length > 11 && !strcmp(param->type + length - 11, "_properties"));
}

/* Appends @p value unless already there. */
static int add(cl_ulong *choices, int count, cl_ulong value)
{
    for (int i = 0; i < count; i++)
        if (choices[i] == value)
            return count;
    if (count < MAX_CHOICES)
        choices[count++] = value;
    return count;
}

static int add_list(cl_ulong *choices, int count, const cl_ulong *list,
                    size_t length, size_t size)
{
    for (size_t i = 0; i < length; i++)
        count = add(choices, count, values_truncate(list[i], size));
    return count;
}

#define LIST(...) (const cl_ulong[]){__VA_ARGS__}, \
    sizeof((const cl_ulong[]){__VA_ARGS__}) / sizeof(cl_ulong)

/* Real calls: sizes and offsets that stay within the checker's 256-byte
 * buffers and scratch areas, or that refcl refuses (1 << 40). */
static int real_scalar_choices(const struct param *param, int kernel_args,
                               cl_ulong *choices)
{
    const char *name = param->name;
    int count = add(choices, 0, real_default(param));
    if (strstr(name, "arg_index") || strstr(name, "arg_indx")) {
        for (int i = 0; i <= kernel_args && i < 8; i++)
            count = add(choices, count, (cl_ulong)i);
    } else if (is_bitfield(param)) {
        for (int bit = 0; bit <= 12; bit++)
            count = add(choices, count, 1ull << bit);
        count = add(choices, count, 0);
    } else if (!strcmp(param->type, "cl_bool")) {
        count = add(choices, count, CL_FALSE);
    } else if (!strcmp(name, "work_dim")) {
        count = add_list(choices, count, LIST(2, 3, 0, 4), param->size);
    } else if (strcmp(param->type, "size_t") != 0 ||
               strstr(name, "arg_size") || strstr(name, "spec_size")) {
        /* an enumeration, or a size that must match what it sizes */
    } else if (strstr(name, "offset")) {
        count = add_list(choices, count, LIST(8, 48, 1ull << 40), 8);
    } else if (strstr(name, "pitch")) {
        count = add_list(choices, count, LIST(16, 64, 1), 8);
    } else if (strstr(name, "pattern_size")) {
        count = add_list(choices, count, LIST(1, 2, 8, 16, 3), 8);
    } else if (strstr(name, "alignment")) {
        count = add_list(choices, count, LIST(8, 64, 4096), 8);
    } else {
        count = add_list(choices, count, LIST(1, 64, 0), 8);
    }
    return count;
}

/* Forced calls: integers of every magnitude, each bit of a bitfield. */
static int forced_scalar_choices(const struct param *param,
                                 cl_ulong *choices)
{
    int count = add(choices, 0, real_default(param));
    if (is_bitfield(param)) {
        count = add(choices, count, 0);
        for (size_t bit = 0; bit < 8 * param->size; bit++)
            count = add(choices, count, 1ull << bit);
        return add(choices, count, values_truncate(~0ull, param->size));
    }
    if (!strcmp(param->type, "cl_bool"))
        return add_list(choices, count, LIST(CL_FALSE, 2, 0xFFFFFFFFu),
                        param->size);
    return add_list(choices, count,
                    LIST(0, 1, 2, 3, 7, 8, 0xFF, 0x100, 0xFFFF, 0x10000,
                         0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 1ull << 32,
                         ~0ull),
                    param->size);
}

/* Pointers a real call passes as NULL by default, whose non-NULL value
 * (a zeroed scratch area) refcl performs or refuses safely. */
static bool real_optional_pointer(const char *name)
{
    static const char *const names[] = {"host_ptr", "global_work_offset",
                                        "local_work_size", "lengths",
                                        "user_data"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

/* A handle list a loader may find the vendor in instead of the dispatch
 * parameter: clCreateContext's devices, after its properties (the Khronos
 * loader dispatches on devices[0] and answers an empty list itself with
 * the spec's CL_INVALID_VALUE, "if num_devices is equal to zero", so an
 * empty one would report a loader that is right). */
static bool loader_may_dispatch_on(const struct entry *entry, int index)
{
    int dispatch = entry_dispatch_param(entry);
    if (dispatch < 0 || entry->params[dispatch].kind != PROPS_CONTEXT)
        return false;
    for (int i = dispatch + 1; i < entry->num_params; i++)
        if (entry->params[i].kind == ARG_HANDLE_LIST)
            return i == index;
    return false;
}

static int pointer_choices(cl_ulong *choices)
{
    choices[0] = CHOICE_DEFAULT;
    choices[1] = CHOICE_OTHER;
    return 2;
}

int values_choices(const struct entry *entry, int index, bool forced,
                   int kernel_args, cl_ulong *choices)
{
    const struct param *param = &entry->params[index];
    if (values_tied(entry, index))
        return 0;
    switch (param->kind) {
    case ARG_SCALAR:
        return forced ? forced_scalar_choices(param, choices)
                      : real_scalar_choices(param, kernel_args, choices);
    case ARG_POINTER:
        if (!forced && !real_optional_pointer(param->name))
            return 0;
        return pointer_choices(choices);
    case ARG_CALLBACK:
        return pointer_choices(choices);
    case ARG_HANDLE_LIST:
        if (index == entry_dispatch_param(entry))
            return 0; /* the loader finds the vendor in it */
        if (loader_may_dispatch_on(entry, index)) /* never empty */
            return forced ? add_list(choices, 0, LIST(2, 1, 3), 8)
                          : add_list(choices, 0, LIST(1, 2), 8);
        return forced ? add_list(choices, 0, LIST(2, 0, 1, 3), 8)
                      : add_list(choices, 0, LIST(1, 0, 2), 8);
    default:
        return arg_is_output(param->kind) ? pointer_choices(choices) : 0;
    }
}

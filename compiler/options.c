/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The options of clBuildProgram, clCompileProgram (OpenCL 3.0 section
 * 5.8.6) and clLinkProgram (5.8.7), split like a shell word list (quotes
 * and backslashes, no expansion) and translated into clang's arguments.
 * Each option is looked up in one table that says which entry points take
 * it and what clang is told; anything else is refused.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refcl/compiler.h"
#include "refcl/error.h"

enum {
    AT_BUILD = 1 << REFCL_STEP_BUILD,
    AT_COMPILE = 1 << REFCL_STEP_COMPILE,
    AT_LINK = 1 << REFCL_STEP_LINK,
    AT_SOURCE = AT_BUILD | AT_COMPILE,
    AT_ALL = AT_SOURCE | AT_LINK,
};

/* An option without a value: where it is taken, and clang's spelling
 * (NULL: nothing to tell clang). */
struct flag {
    const char *name;
    unsigned steps;
    const char *clang;
};

/* The math options clLinkProgram also takes ("program linking options")
 * change how source is compiled; at link time the objects are compiled
 * already, so they are accepted and recorded, and tell clang nothing. */
static const struct flag flags[] = {
    {"-w", AT_SOURCE, "-w"},
    {"-Werror", AT_SOURCE, "-Werror"},
    {"-g", AT_SOURCE, "-g"},
    {"-cl-opt-disable", AT_SOURCE, NULL},
    {"-cl-mad-enable", AT_SOURCE, "-cl-mad-enable"},
    {"-cl-single-precision-constant", AT_SOURCE,
     "-cl-single-precision-constant"},
    {"-cl-fp32-correctly-rounded-divide-sqrt", AT_SOURCE,
     "-cl-fp32-correctly-rounded-divide-sqrt"},
    {"-cl-kernel-arg-info", AT_SOURCE, "-cl-kernel-arg-info"},
    /* Deprecated since OpenCL 1.1, and still one of clBuildProgram's
     * options: accepted, and nothing for clang (which never assumed
     * otherwise of OpenCL C). */
    {"-cl-strict-aliasing", AT_SOURCE, NULL},
    {"-cl-uniform-work-group-size", AT_SOURCE, "-cl-uniform-work-group-size"},
    {"-cl-no-signed-zeros", AT_ALL, "-cl-no-signed-zeros"},
    {"-cl-unsafe-math-optimizations", AT_ALL,
     "-cl-unsafe-math-optimizations"},
    {"-cl-finite-math-only", AT_ALL, "-cl-finite-math-only"},
    {"-cl-fast-relaxed-math", AT_ALL, "-cl-fast-relaxed-math"},
    {"-cl-denorms-are-zero", AT_ALL, "-cl-denorms-are-zero"},
    /* Sub-groups have no forward progress to give up on refcl (no
     * sub-group extension); clang 15 does not know the option. */
    {"-cl-no-subgroup-ifp", AT_ALL, NULL},
    {"-create-library", AT_LINK, NULL},
    {"-enable-link-options", AT_LINK, NULL},
    /* refcl's own, unsafe: a kernel's inline assembly can do anything the
     * application can (docs/compiler.md). */
    {"-cl-refcl-allow-inline-asm", AT_SOURCE, NULL},
    /* refcl's own: the build log says, per kernel, whether its work-items
     * run several at a time and if not why (compiler/pass/jam.cpp). */
    {"-cl-refcl-vectorize-report", AT_SOURCE, "-Rpass-analysis=refcl-jam-items"},
};

/* The OpenCL C versions every refcl device reports
 * (CL_DEVICE_OPENCL_C_ALL_VERSIONS), as -cl-std= spells them. */
static const struct {
    const char *name;
    unsigned version;
} versions[] = {
    {"CL1.0", 10}, {"CL1.1", 11}, {"CL1.2", 12}, {"CL3.0", 30},
};

static cl_int invalid(enum refcl_compiler_step step, const char *option)
{
    (void)option;
    switch (step) {
    case REFCL_STEP_BUILD:
        /* CL_INVALID_BUILD_OPTIONS "if the build options specified by
         * options are invalid". */
        return REFCL_FAIL(CL_INVALID_BUILD_OPTIONS, "\"%.64s\": \"if the "
                          "build options specified by options are "
                          "invalid\"", option);
    case REFCL_STEP_COMPILE:
        /* CL_INVALID_COMPILER_OPTIONS "if the compiler options specified
         * by options are invalid". */
        return REFCL_FAIL(CL_INVALID_COMPILER_OPTIONS, "\"%.64s\": \"if the "
                          "compiler options specified by options are "
                          "invalid\"", option);
    default:
        /* CL_INVALID_LINKER_OPTIONS "if the linker options specified by
         * options are invalid". */
        return REFCL_FAIL(CL_INVALID_LINKER_OPTIONS, "\"%.64s\": \"if the "
                          "linker options specified by options are "
                          "invalid\"", option);
    }
}

static bool push(struct refcl_compiler_options *out, char *arg)
{
    if (!arg)
        return false;
    if (out->count + 1 >= out->capacity) {
        size_t capacity = out->capacity ? 2 * out->capacity : 16;
        char **args = realloc(out->args, capacity * sizeof(*args));
        if (!args) {
            free(arg);
            return false;
        }
        out->args = args;
        out->capacity = capacity;
    }
    out->args[out->count++] = arg;
    out->args[out->count] = NULL;
    return true;
}

static char *concat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 1);
    if (s) {
        memcpy(s, a, na);
        memcpy(s + na, b, nb + 1);
    }
    return s;
}

/* What next_word found. */
enum word { WORD, END, OPEN_QUOTE };

/* The next word of *@p cursor into @p word (as long as the options): words
 * are separated by blanks; quotes group, a backslash takes the next
 * character as it is. A quote left open to the end is no word: the
 * options are malformed. */
static enum word next_word(const char **cursor, char *word)
{
    const char *p = *cursor;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (!*p)
        return END;
    char quote = 0;
    for (; *p && (quote || !strchr(" \t\n\r", *p)); p++) {
        if (quote && *p == quote)
            quote = 0;
        else if (!quote && (*p == '"' || *p == '\''))
            quote = *p;
        else if (*p == '\\' && p[1] && quote != '\'')
            *word++ = *++p;
        else
            *word++ = *p;
    }
    *word = '\0';
    *cursor = p;
    return quote ? OPEN_QUOTE : WORD;
}

/* -I's directory made absolute: clang runs in its own directory. */
static char *include_arg(const char *dir)
{
    if (dir[0] == '/')
        return concat("-I", dir);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof(cwd)))
        return concat("-I", dir);
    char *base = concat(cwd, "/");
    char *path = base ? concat(base, dir) : NULL;
    char *arg = path ? concat("-I", path) : NULL;
    free(base);
    free(path);
    return arg;
}

/* -D and -I, with their value in the same word or the next. */
static cl_int valued(const char *word, const char **cursor, char *value,
                     enum refcl_compiler_step step,
                     struct refcl_compiler_options *out)
{
    if (step == REFCL_STEP_LINK)
        return invalid(step, word);
    if (word[2])
        strcpy(value, word + 2);
    else if (next_word(cursor, value) != WORD)
        return invalid(step, word);
    bool define = word[1] == 'D';
    if (!value[0] || (define && value[0] == '='))
        return invalid(step, word);
    if (!push(out, define ? concat("-D", value) : include_arg(value)))
        return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for options");
    return CL_SUCCESS;
}

static cl_int standard(const char *word, enum refcl_compiler_step step,
                       struct refcl_compiler_options *out)
{
    for (size_t i = 0; step != REFCL_STEP_LINK &&
                       i < sizeof(versions) / sizeof(versions[0]); i++)
        if (!strcmp(word + strlen("-cl-std="), versions[i].name)) {
            out->cl_std = versions[i].version;
            return CL_SUCCESS;
        }
    return invalid(step, word);
}

static void note(const char *name, struct refcl_compiler_options *out)
{
    out->create_library |= !strcmp(name, "-create-library");
    out->enable_link_options |= !strcmp(name, "-enable-link-options");
    out->kernel_arg_info |= !strcmp(name, "-cl-kernel-arg-info");
    out->uniform_work_groups |= !strcmp(name, "-cl-uniform-work-group-size");
    out->opt_disable |= !strcmp(name, "-cl-opt-disable");
    out->allow_inline_asm |= !strcmp(name, "-cl-refcl-allow-inline-asm");
}

static cl_int one_option(const char *word, const char **cursor, char *value,
                         enum refcl_compiler_step step,
                         struct refcl_compiler_options *out)
{
    if (!strncmp(word, "-D", 2) || !strncmp(word, "-I", 2))
        return valued(word, cursor, value, step, out);
    if (!strncmp(word, "-cl-std=", strlen("-cl-std=")))
        return standard(word, step, out);
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        if (strcmp(word, flags[i].name))
            continue;
        if (!(flags[i].steps & (1u << step)))
            return invalid(step, word);
        note(word, out);
        if (flags[i].clang && step != REFCL_STEP_LINK &&
            !push(out, strdup(flags[i].clang)))
            return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for options");
        return CL_SUCCESS;
    }
    return invalid(step, word);
}

cl_int refcl_compiler_options_parse(const char *options,
                                    enum refcl_compiler_step step,
                                    struct refcl_compiler_options *out)
{
    *out = (struct refcl_compiler_options){0};
    /* "If options is a NULL pointer then it will have the same result as
     * the empty string." */
    const char *cursor = options ? options : "";
    size_t length = strlen(cursor) + 1;
    char *word = malloc(length), *value = malloc(length);
    cl_int status = word && value ? CL_SUCCESS
                                  : REFCL_FAIL(CL_OUT_OF_HOST_MEMORY,
                                               "no memory for options");
    for (enum word found; status == CL_SUCCESS &&
                          (found = next_word(&cursor, word)) != END;)
        status = found == WORD
                     ? one_option(word, &cursor, value, step, out)
                     : invalid(step, "an unterminated quote");
    /* "-enable-link-options ... is only valid when -create-library is
     * specified." */
    if (status == CL_SUCCESS && out->enable_link_options &&
        !out->create_library)
        status = invalid(step, "-enable-link-options");
    free(word);
    free(value);
    return status;
}

void refcl_compiler_options_free(struct refcl_compiler_options *options)
{
    for (size_t i = 0; i < options->count; i++)
        free(options->args[i]);
    free(options->args);
    *options = (struct refcl_compiler_options){0};
}

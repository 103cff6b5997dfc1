/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reads refcl's environment variables once (see refcl/config.h). Every
 * value is validated; a bad one is reported on stderr, naming the variable
 * and what it accepts, and the default is used instead.
 *
 * REFCL_INSTANCES names a file of per-instance settings: the section headed
 * with this library's own file name (found with dladdr) overrides the
 * environment, so that copies of librefcl loaded side by side by one loader
 * can each be configured differently (README.md, "Configuration").
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refcl/config.h"
#include "refcl/error.h"

static struct refcl_config config;

/* ---- per-instance settings (REFCL_INSTANCES) ---- */

/* The variables a section may set: every REFCL_* but REFCL_INSTANCES. */
static const char *const instance_variables[] = {
    "REFCL_PLATFORMS",   "REFCL_PLATFORM_NAME",   "REFCL_ICD_SUFFIX",
    "REFCL_ICD_VERSION", "REFCL_FAULT",           "REFCL_TRACE",
    "REFCL_TRACE_ADDRESSES", "REFCL_JOURNAL",
};
#define INSTANCE_VARIABLES \
    (sizeof(instance_variables) / sizeof(instance_variables[0]))
#define INSTANCES_FILE_MAX 65536
#define SETTING_MAX 1024

/* This instance's value of each variable, when its section sets it. */
static char instance_values[INSTANCE_VARIABLES][SETTING_MAX];
static bool instance_set[INSTANCE_VARIABLES];

static void complain(const char *variable, const char *value,
                     const char *accepted, const char *fallback);

/* This library's file name, without its directory: what its section of the
 * instances file is headed with. */
static const char *own_file_name(void)
{
    Dl_info info;
    if (!dladdr((void *)&config, &info) || !info.dli_fname)
        return NULL;
    const char *slash = strrchr(info.dli_fname, '/');
    return slash ? slash + 1 : info.dli_fname;
}

/* One "NAME=value" line of this instance's section. */
static void instance_setting(const char *path, const char *line)
{
    const char *equals = strchr(line, '=');
    size_t length = equals ? (size_t)(equals - line) : 0;
    for (size_t i = 0; equals && i < INSTANCE_VARIABLES; i++)
        if (strlen(instance_variables[i]) == length &&
            !strncmp(line, instance_variables[i], length) &&
            strlen(equals + 1) < SETTING_MAX) {
            strcpy(instance_values[i], equals + 1);
            instance_set[i] = true;
            return;
        }
    complain("REFCL_INSTANCES", path,
             "sections of REFCL_*=value lines (REFCL_INSTANCES excepted), "
             "values shorter than 1024 characters",
             "the other lines");
    fprintf(stderr, "refcl: the line refcl ignored: %s\n", line);
}

/* Reads the lines of section [@p name] of @p text. */
static void instance_section(const char *path, char *text, const char *name)
{
    bool ours = false;
    char *rest;
    for (char *line = strtok_r(text, "\n", &rest); line;
         line = strtok_r(NULL, "\n", &rest)) {
        size_t length = strlen(line);
        if (length && line[length - 1] == '\r')
            line[--length] = '\0';
        if (length == 0 || line[0] == '#')
            continue;
        if (line[0] == '[' && line[length - 1] == ']') {
            ours = length - 2 == strlen(name) &&
                   !strncmp(line + 1, name, length - 2);
            continue;
        }
        if (ours)
            instance_setting(path, line);
    }
}

static void read_instances(void)
{
    const char *path = getenv("REFCL_INSTANCES");
    const char *name = own_file_name();
    if (!path || !*path || !name)
        return;
    static char text[INSTANCES_FILE_MAX + 1];
    FILE *file = fopen(path, "re");
    size_t length = file ? fread(text, 1, INSTANCES_FILE_MAX + 1, file) : 0;
    if (!file || length > INSTANCES_FILE_MAX) {
        complain("REFCL_INSTANCES", path,
                 "a readable file of at most 64 KiB", "the environment");
    } else {
        text[length] = '\0';
        instance_section(path, text, name);
    }
    if (file)
        fclose(file);
}

/* A variable's value: this instance's section first, then the
 * environment. */
static const char *setting(const char *variable)
{
    for (size_t i = 0; i < INSTANCE_VARIABLES; i++)
        if (instance_set[i] && !strcmp(instance_variables[i], variable))
            return instance_values[i];
    return getenv(variable);
}

static void complain(const char *variable, const char *value,
                     const char *accepted, const char *fallback)
{
    fprintf(stderr, "refcl: ignoring %s=\"%s\": expected %s; using %s\n",
            variable, value, accepted, fallback);
}

static void read_platform_count(void)
{
    const char *value = setting("REFCL_PLATFORMS");
    config.platforms = 1;
    if (!value)
        return;
    char *end;
    long n = strtol(value, &end, 10);
    if (*value && !*end && n >= 1 && n <= REFCL_MAX_PLATFORMS)
        config.platforms = (cl_uint)n;
    else
        complain("REFCL_PLATFORMS", value, "a number from 1 to 16", "1");
}

/* CL_PLATFORM_NAME of platforms without one in REFCL_PLATFORM_NAME. */
static const char *const default_names[REFCL_MAX_PLATFORMS] = {
    "refcl",    "refcl 1",  "refcl 2",  "refcl 3",  "refcl 4",  "refcl 5",
    "refcl 6",  "refcl 7",  "refcl 8",  "refcl 9",  "refcl 10", "refcl 11",
    "refcl 12", "refcl 13", "refcl 14", "refcl 15",
};
_Static_assert(REFCL_MAX_PLATFORMS == 16, "one default name per platform");

/*
 * Points table[i] at the i-th item of a comma-separated list, copied into
 * items[i]; platforms past the list, or with an empty item, keep the
 * default already in table[i]. The item "" (two double quotes) stands for
 * the empty string: cl_khr_icd lets a vendor have no suffix.
 */
static void read_list(const char *variable, const char *table[],
                      char items[][REFCL_NAME_SIZE])
{
    const char *value = setting(variable);
    for (cl_uint i = 0; value && *value && i < REFCL_MAX_PLATFORMS; i++) {
        size_t len = strcspn(value, ",");
        if (len >= REFCL_NAME_SIZE) {
            complain(variable, value, "items shorter than 64 characters",
                     "the default for that platform");
        } else if (len == 2 && !strncmp(value, "\"\"", 2)) {
            items[i][0] = '\0';
            table[i] = items[i];
        } else if (len > 0) {
            memcpy(items[i], value, len);
            items[i][len] = '\0';
            table[i] = items[i];
        }
        value += len + (value[len] == ',');
    }
}

static void read_names(void)
{
    for (cl_uint i = 0; i < REFCL_MAX_PLATFORMS; i++) {
        config.names[i] = default_names[i];
        config.suffixes[i] = "REFCL";
    }
    read_list("REFCL_PLATFORM_NAME", config.names, config.name_items);
    read_list("REFCL_ICD_SUFFIX", config.suffixes, config.suffix_items);
}

static void read_icd_version(void)
{
    const char *value = setting("REFCL_ICD_VERSION");
    config.icd_version = 2;
    if (!value)
        return;
    if (!strcmp(value, "1") || !strcmp(value, "2"))
        config.icd_version = value[0] - '0';
    else
        complain("REFCL_ICD_VERSION", value, "1 or 2", "2");
}

static const char *const fault_names[] = {
    [REFCL_FAULT_NONE] = "none",
    [REFCL_FAULT_GET_PLATFORMS_FAILS] = "get-platforms-fails",
    [REFCL_FAULT_ZERO_PLATFORMS] = "zero-platforms",
    [REFCL_FAULT_NO_KHR_ICD] = "no-khr-icd",
    [REFCL_FAULT_SUFFIX_FAILS] = "suffix-fails",
    [REFCL_FAULT_ONE_TAG] = "one-tag",
    [REFCL_FAULT_NO_GET_FUNCTION] = "no-get-function",
    [REFCL_FAULT_NO_SET_DISP_DATA] = "no-set-dispatch-data",
};

static void read_fault(void)
{
    const char *value = setting("REFCL_FAULT");
    config.fault = REFCL_FAULT_NONE;
    if (!value)
        return;
    for (size_t i = 0; i < sizeof(fault_names) / sizeof(fault_names[0]); i++)
        if (!strcmp(value, fault_names[i])) {
            config.fault = (enum refcl_fault)i;
            return;
        }
    complain("REFCL_FAULT", value,
             "none, get-platforms-fails, zero-platforms, no-khr-icd, "
             "suffix-fails, one-tag, no-get-function or no-set-dispatch-data",
             "none");
}

/* REFCL_TRACE: unset or 0, no trace; 1, stderr; anything else, a file,
 * created or emptied. A file that cannot be opened means no trace. */
static void read_trace(void)
{
    const char *value = setting("REFCL_TRACE");
    config.trace_fd = -1;
    if (!value || !strcmp(value, "0"))
        return;
    if (!strcmp(value, "1")) {
        config.trace_fd = STDERR_FILENO;
        return;
    }
    config.trace_fd = open(value, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
                                      O_CLOEXEC, 0666);
    if (config.trace_fd < 0) {
        char accepted[160];
        snprintf(accepted, sizeof(accepted),
                 "0, 1 or a file refcl can write (%s)", strerror(errno));
        complain("REFCL_TRACE", value, accepted, "no trace");
    }
}

/* A variable that is 0 or 1; @p fallback when unset or neither. */
static bool read_switch(const char *variable, bool fallback)
{
    const char *value = setting(variable);
    if (value && (!strcmp(value, "0") || !strcmp(value, "1")))
        return value[0] == '1';
    if (value)
        complain(variable, value, "0 or 1", fallback ? "1" : "0");
    return fallback;
}

static void read_trace_addresses(void)
{
    config.trace_addresses = read_switch("REFCL_TRACE_ADDRESSES", true);
}

/* REFCL_JOURNAL: 1 keeps a journal of the calls (docs/journal.md). */
static void read_journal(void)
{
    config.journal = read_switch("REFCL_JOURNAL", false);
}

/* REFCL_BIND: 1 (default) binds every thread that runs commands to its
 * device's processing units; 0 leaves placement to the system, for
 * machines (containers, job schedulers) that forbid binding. */
static void read_bind(void)
{
    config.bind = read_switch("REFCL_BIND", true);
}

static void config_read(void)
{
    read_instances();
    read_platform_count();
    read_names();
    read_icd_version();
    read_fault();
    read_trace();
    read_trace_addresses();
    read_journal();
    read_bind();
}

/* The trace file is refcl's until the library unloads: a loader that
 * dlcloses refcl and loads it again gets a fresh trace, and no stray fd. */
__attribute__((destructor)) static void config_unload(void)
{
    if (config.trace_fd > STDERR_FILENO)
        close(config.trace_fd);
    config.trace_fd = -1;
}

const struct refcl_config *refcl_config(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, config_read);
    return &config;
}

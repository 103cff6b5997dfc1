/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl-loader-check: tells an OpenCL ICD loader's developer, check by
 * check, whether the loader routes OpenCL correctly to its vendors. It
 * installs copies of refcl as vendors in a temporary directory, runs the
 * loader with them in child processes (runner.c), and compares every call
 * with what refcl's journal says arrived (docs/loader-check.md, and the
 * man page refcl-loader-check(1)).
 */
#include <dlfcn.h>
#include <fnmatch.h>
#include <link.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"
#include "runner.h"
#include "vendors.h"

#ifndef REFCL_LIBRARY_DEFAULT
#define REFCL_LIBRARY_DEFAULT "librefcl.so.1"
#endif
#ifndef LOADERCHECK_VERSION
#define LOADERCHECK_VERSION "unknown"
#endif

struct options {
    const char *loader;
    const char *refcl;
    const char *junit;
    const char *expect;
    const char *only[32];
    int only_count;
    bool list;
    bool identify;
    bool keep;
    unsigned timeout;
};

static const char usage[] =
    "usage: refcl-loader-check [--loader LIBRARY] [--refcl LIBRARY]\n"
    "                          [--only PATTERN]... [--list] [--junit FILE]\n"
    "                          [--expect FILE] [--timeout SECONDS] [--keep]\n"
    "       refcl-loader-check --identify [--loader LIBRARY]\n"
    "\n"
    "Checks that an OpenCL ICD loader routes every call correctly to its\n"
    "vendors, using copies of refcl as the vendors.\n"
    "\n"
    "  --loader LIBRARY  the loader to check (default: libOpenCL.so.1, as\n"
    "                    the dynamic linker finds it)\n"
    "  --refcl LIBRARY   refcl's library to make the vendors from\n"
    "                    (default: " REFCL_LIBRARY_DEFAULT ",\n"
    "                    else librefcl.so.1 as the dynamic linker finds it)\n"
    "  --only PATTERN    run only the checks whose name matches the glob\n"
    "                    PATTERN, or begins with a match (repeatable)\n"
    "  --list            list the checks' names and exit\n"
    "  --junit FILE      also write the results as JUnit XML\n"
    "  --expect FILE     compare the failures with the expected ones: exit 0\n"
    "                    only if they are the same\n"
    "  --timeout SECONDS the longest a check may take (default 60)\n"
    "  --keep            keep the temporary vendors directory, to reproduce\n"
    "  --identify        print the loader's name and version, and exit\n"
    "\n"
    "Each line says ok, FAIL or skip, the check's name and what was\n"
    "expected and received; then a table per entry point, coverage, and\n"
    "the closing line 'N passed, N failed'. Exit status: 0 when no check\n"
    "failed (with --expect: when the failures are the expected ones), 1\n"
    "otherwise, 2 for a usage error, 3 when the checks cannot run.\n"
    "See refcl-loader-check(1).\n";

/* refcl's library when --refcl is not given: the installed one, else the
 * one the dynamic linker finds by its soname (refcl is installed
 * elsewhere than this program was configured for). */
static const char *default_refcl(void)
{
    static char path[4096];
    if (access(REFCL_LIBRARY_DEFAULT, R_OK) == 0)
        return REFCL_LIBRARY_DEFAULT;
    void *handle = dlopen("librefcl.so.1", RTLD_LAZY | RTLD_LOCAL);
    struct link_map *map = NULL;
    if (handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
        map->l_name[0])
        snprintf(path, sizeof(path), "%s", map->l_name);
    if (handle)
        dlclose(handle);
    return path[0] ? path : REFCL_LIBRARY_DEFAULT;
}

static void parse(int argc, char **argv, struct options *options)
{
    static const struct option longs[] = {
        {"loader", required_argument, NULL, 'l'},
        {"refcl", required_argument, NULL, 'r'},
        {"only", required_argument, NULL, 'o'},
        {"list", no_argument, NULL, 'L'},
        {"junit", required_argument, NULL, 'j'},
        {"expect", required_argument, NULL, 'e'},
        {"timeout", required_argument, NULL, 't'},
        {"keep", no_argument, NULL, 'k'},
        {"identify", no_argument, NULL, 'i'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    *options = (struct options){.loader = "libOpenCL.so.1",
                                .refcl = NULL,
                                .timeout = 60};
    for (int c; (c = getopt_long(argc, argv, "h", longs, NULL)) != -1;) {
        switch (c) {
        case 'l': options->loader = optarg; break;
        case 'r': options->refcl = optarg; break;
        case 'o':
            if (options->only_count < 32)
                options->only[options->only_count++] = optarg;
            break;
        case 'L': options->list = true; break;
        case 'j': options->junit = optarg; break;
        case 'e': options->expect = optarg; break;
        case 't': options->timeout = (unsigned)atoi(optarg); break;
        case 'k': options->keep = true; break;
        case 'i': options->identify = true; break;
        case 'h': fputs(usage, stdout); exit(0);
        case 'V': puts("refcl-loader-check " LOADERCHECK_VERSION); exit(0);
        default: fputs(usage, stderr); exit(2);
        }
    }
    if (optind < argc || options->timeout == 0) {
        fputs(usage, stderr);
        exit(2);
    }
    if (!options->refcl)
        options->refcl = default_refcl();
}

static bool selected(const struct options *options, const char *id)
{
    if (options->only_count == 0)
        return true;
    for (int i = 0; i < options->only_count; i++) {
        char prefix[256];
        snprintf(prefix, sizeof(prefix), "%s*", options->only[i]);
        if (!fnmatch(options->only[i], id, 0) || !fnmatch(prefix, id, 0))
            return true;
    }
    return false;
}

/* In a child: the loader's answer to ocl-icd's clGetICDLoaderInfoOCLICD
 * (which the Khronos loader gives too), written to @p fd; with no vendor
 * to load. */
static void loader_identity_child(int fd, const char *loader)
{
    setenv("OCL_ICD_VENDORS", "/nonexistent/refcl-loader-check", 1);
    setenv("OPENCL_LAYER_PATH", "/nonexistent/refcl-loader-check", 1);
    unsetenv("OCL_ICD_FILENAMES");
    unsetenv("OPENCL_LAYERS");
    void *handle = dlopen(loader, RTLD_NOW | RTLD_LOCAL);
    void *(*lookup)(const char *) = handle
        ? (void *(*)(const char *))(uintptr_t)dlsym(
              handle, "clGetExtensionFunctionAddress")
        : NULL;
    clGetICDLoaderInfoOCLICD_t *info = lookup
        ? (clGetICDLoaderInfoOCLICD_t *)(uintptr_t)lookup(
              "clGetICDLoaderInfoOCLICD")
        : NULL;
    char name[96] = "", version[64] = "";
    if (!info || info(CL_ICDL_NAME, sizeof(name), name, NULL) != CL_SUCCESS ||
        info(CL_ICDL_VERSION, sizeof(version), version, NULL) != CL_SUCCESS)
        return;
    dprintf(fd, "%s %s", name, version);
}

/* The loader's name and version, asked in a child: loading the loader here
 * would make it initialise in the parent, which must stay clean. */
static void loader_identity(const char *loader, char *text, size_t size)
{
    snprintf(text, size, "%s", loader);
    int fds[2];
    if (pipe(fds) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        loader_identity_child(fds[1], loader);
        _exit(0);
    }
    close(fds[1]);
    char answer[256];
    ssize_t n = pid > 0 ? read(fds[0], answer, sizeof(answer) - 1) : 0;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    if (n > 0) {
        answer[n] = '\0';
        snprintf(text, size, "%s (%s)", loader, answer);
    }
}

/* After every scenario: the table, coverage, JUnit, expectations, and the
 * closing count. The exit status. */
static int report_finish(const struct options *options,
                         const struct report_data *data, const char *loader)
{
    bool per_entry = false;
    for (size_t i = 0; i < data->count; i++)
        per_entry = per_entry ||
                    (data->done[i] && data->checks[i].column != COLUMN_NONE);
    if (per_entry) {
        report_table(stdout, data);
        report_coverage(stdout, data);
    }
    report_scenarios(stdout, data);
    int passed, failed, skipped;
    report_counts(stdout, data, &passed, &failed, &skipped);
    if (options->junit && !report_junit(options->junit, data, loader))
        fprintf(stderr, "refcl-loader-check: cannot write %s\n",
                options->junit);
    bool as_expected = true;
    if (options->expect)
        as_expected = expect_compare(stdout, options->expect, data,
                                     options->only_count > 0);
    printf("\n%d skipped (not checked, with the reasons above)\n", skipped);
    printf("%d passed, %d failed\n", passed, failed);
    if (options->expect)
        return as_expected ? 0 : 1;
    return failed ? 1 : 0;
}

/* Each scenario with a chosen check: its vendors installed under @p dir,
 * its checks run and printed. False if a scenario cannot be installed. */
static bool run_scenarios(const struct options *options,
                          const struct check *checks, size_t count,
                          const bool *chosen, const char *dir,
                          struct outcome *outcomes, bool *done)
{
    for (size_t first = 0; first < count;) {
        size_t last = first;
        while (last + 1 < count &&
               checks[last + 1].scenario == checks[first].scenario)
            last++;
        bool any = false;
        for (size_t i = first; i <= last; i++)
            any = any || chosen[i];
        const struct scenario *scenario = checks[first].scenario;
        char scenario_dir[4200], why[512];
        snprintf(scenario_dir, sizeof(scenario_dir), "%s/%s", dir,
                 scenario->name);
        if (any && !vendors_install(scenario_dir, scenario, options->refcl,
                                    why, sizeof(why))) {
            fprintf(stderr, "refcl-loader-check: %s\n", why);
            return false;
        }
        if (any) {
            struct run run = {checks, chosen,       outcomes,        done,
                              scenario_dir, options->loader,
                              options->timeout};
            printf("# %s: %s\n", scenario->name, scenario->summary);
            runner_scenario(&run, first, last);
            for (size_t i = first; i <= last; i++)
                if (done[i])
                    report_line(stdout, &checks[i], &outcomes[i]);
            fflush(stdout);
        }
        first = last + 1;
    }
    return true;
}

static int run_all(const struct options *options, const struct check *checks,
                   size_t count, const bool *chosen)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/refcl-loader-check.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("refcl-loader-check: cannot create a temporary directory");
        return 3;
    }
    struct outcome *outcomes = calloc(count, sizeof(*outcomes));
    bool *done = calloc(count, sizeof(*done));
    char identity[512];
    loader_identity(options->loader, identity, sizeof(identity));
    printf("refcl-loader-check %s: loader %s, vendors made from %s\n",
           LOADERCHECK_VERSION, identity, options->refcl);
    int status = 3;
    if (outcomes && done &&
        run_scenarios(options, checks, count, chosen, dir, outcomes, done)) {
        struct report_data data = {checks, outcomes, done, count};
        status = report_finish(options, &data, identity);
    }
    if (options->keep)
        fprintf(stderr, "refcl-loader-check: vendors kept in %s\n", dir);
    else
        vendors_remove(dir);
    free(outcomes);
    free(done);
    return status;
}

int main(int argc, char **argv)
{
    struct options options;
    parse(argc, argv, &options);
    size_t count;
    struct check *checks = plan_build(&count);
    bool *chosen = calloc(count, sizeof(*chosen));
    if (!chosen)
        return 3;
    for (size_t i = 0; i < count; i++)
        chosen[i] = selected(&options, checks[i].id);
    int status = 0;
    if (options.identify) {
        char identity[512];
        loader_identity(options.loader, identity, sizeof(identity));
        puts(identity);
    } else if (options.list) {
        for (size_t i = 0; i < count; i++)
            if (chosen[i])
                puts(checks[i].id);
    } else if (access(options.refcl, R_OK) != 0) {
        fprintf(stderr, "refcl-loader-check: cannot read refcl's library %s "
                        "(use --refcl)\n",
                options.refcl);
        status = 3;
    } else {
        status = run_all(&options, checks, count, chosen);
    }
    free(chosen);
    free(checks);
    return status;
}

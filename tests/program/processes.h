/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of the compiler's processes share (program/server,
 * program/build-limits): finding refcl's compiler processes among a
 * process's children (/proc/PID/task/N/children, named by
 * /proc/PID/comm), their working directories, and the builds they run.
 */
#ifndef REFCL_TEST_PROCESSES_H
#define REFCL_TEST_PROCESSES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

enum { MAX_SERVERS = 64 };

static inline void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Whether @p pid's command is @p name. */
static inline bool is_named(int pid, const char *name)
{
    char path[64], comm[32] = "";
    snprintf(path, sizeof(path), "/proc/%d/comm", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool read = fgets(comm, sizeof(comm), f) != NULL;
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';
    return read && !strcmp(comm, name);
}

static inline bool is_server(int pid)
{
    return is_named(pid, "refcl-compiler");
}

/* The live children of @p parent (any thread's) that @p accept accepts,
 * at most MAX_SERVERS of them. */
static inline int children_of(int parent, bool (*accept)(int pid), int *pids)
{
    int count = 0;
    char dir[64];
    snprintf(dir, sizeof(dir), "/proc/%d/task", parent);
    DIR *tasks = opendir(dir);
    for (struct dirent *t; tasks && (t = readdir(tasks));) {
        char path[400];
        snprintf(path, sizeof(path), "%s/%s/children", dir, t->d_name);
        FILE *f = fopen(path, "r");
        int pid;
        while (f && fscanf(f, "%d", &pid) == 1)
            if (accept(pid) && count < MAX_SERVERS)
                pids[count++] = pid;
        if (f)
            fclose(f);
    }
    if (tasks)
        closedir(tasks);
    return count;
}

/* The live servers among this process's children. */
static inline int find_servers(int *pids)
{
    return children_of(getpid(), is_server, pids);
}

/* The working directory of @p pid, or "": a server waits in "/", and
 * works in its job's directory. */
static inline void cwd_of(int pid, char *cwd, size_t room)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
    ssize_t n = readlink(path, cwd, room - 1);
    cwd[n > 0 ? n : 0] = '\0';
}

/* The build log of @p program for @p device (to be freed). */
static inline char *build_log_of(cl_program program, cl_device_id device)
{
    size_t size = 0;
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0,
                                   NULL, &size), CL_SUCCESS);
    char *log = calloc(1, size + 1);
    CHECK_EQ(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                   size, log, NULL), CL_SUCCESS);
    return log;
}

/* A program of @p text in @p context, which must be made. */
static inline cl_program program_in(cl_context context, const char *text)
{
    cl_int err = 1;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL,
                                                   &err);
    CHECK_EQ(err, CL_SUCCESS);
    return program;
}

#endif /* REFCL_TEST_PROCESSES_H */

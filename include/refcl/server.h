/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The persistent compiler processes (refcl-compiler, compiler/server/; the
 * pool, compiler/pool.c, which clUnloadPlatformCompiler reaches through the
 * hooks the compiler registers with the platform layer at load):
 * librefcl keeps a few, spawned at the first job that needs one, so that a
 * build pays for the compile, not for LLVM's start-up. docs/compiler.md.
 */
#ifndef REFCL_COMPILER_SERVER_H
#define REFCL_COMPILER_SERVER_H

#include <stddef.h>
#include <sys/resource.h>
#include <time.h>

enum refcl_served {
    REFCL_SERVED,       /**< the job ran; its exit status is known */
    REFCL_NOT_SERVED,   /**< no server could take it: run it yourself */
    REFCL_SERVER_DIED,  /**< the server died with the job: @p note says how */
    REFCL_SERVER_TIMED_OUT, /**< the job ran past the deadline: the server
                                 was killed (SIGKILL, stopped or not) */
};

/** What a build may use (REFCL_BUILD_TIMEOUT, REFCL_BUILD_MEMORY). */
struct refcl_job_limits {
    struct timespec deadline; /**< CLOCK_MONOTONIC: the build's end */
    rlim_t memory;            /**< RLIMIT_AS of a new server; 0: none */
};

/** Milliseconds from now to @p deadline (CLOCK_MONOTONIC), 0 if past: a
 *  poll() timeout. */
int refcl_ms_until(const struct timespec *deadline);

/**
 * Runs @p argv (a clang or llvm-link command line, the server's program
 * @p server) in the working directory @p dir, its output appended to
 * dir's build.log, on an idle server or a new one (started with @p env,
 * every other descriptor closed, its address space limited to
 * @p limits->memory). A job not answered by @p limits->deadline ends with
 * its server killed. Several threads may call it at once: each takes its
 * own server.
 */
enum refcl_served refcl_server_run(const char *server, const char *dir,
                                   char *const argv[], char *const env[],
                                   const struct refcl_job_limits *limits,
                                   int *exit_status, char *note,
                                   size_t note_room);

/** Ends the idle servers (killed, never waited for to finish anything):
 *  clUnloadPlatformCompiler and library unload. The next build spawns one
 *  again. */
void refcl_server_release_idle(void);

#endif /* REFCL_COMPILER_SERVER_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finds the compiler's parts (refcl/toolchain.h) once, with access() calls
 * only. The defaults are those the build configured (the Debian package
 * refcl-opencl-compiler installs the plugin and the library there and
 * depends on the clang they were built for). The environment is read with
 * secure_getenv: a set-user-ID program never runs a compiler its caller's
 * environment named.
 */
#include <limits.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "refcl/platform.h"
#include "refcl/server.h"
#include "refcl/toolchain.h"
#include "refcl/version.h"

#ifndef REFCL_CLANG_DEFAULT
#define REFCL_CLANG_DEFAULT ""
#endif
#ifndef REFCL_LLVM_LINK_DEFAULT
#define REFCL_LLVM_LINK_DEFAULT ""
#endif
#ifndef REFCL_LD_DEFAULT
#define REFCL_LD_DEFAULT ""
#endif
#ifndef REFCL_LIBC_STUB
#define REFCL_LIBC_STUB ""
#endif
#ifndef REFCL_LIBM_STUB
#define REFCL_LIBM_STUB ""
#endif
#ifndef REFCL_LIBMVEC_STUB
#define REFCL_LIBMVEC_STUB ""
#endif
#ifndef REFCL_LLVM_SPIRV_DEFAULT
#define REFCL_LLVM_SPIRV_DEFAULT ""
#endif
#ifndef REFCL_COMPILER_DIR_DEFAULT
#define REFCL_COMPILER_DIR_DEFAULT ""
#endif
#ifndef REFCL_SERVER_LINKS_DEFAULT
#define REFCL_SERVER_LINKS_DEFAULT 0
#endif
#ifndef REFCL_LLVM_MAJOR
#define REFCL_LLVM_MAJOR 0
#endif

static struct refcl_toolchain toolchain;
static char plugin_path[PATH_MAX];
static char builtins_path[PATH_MAX];
static char server_path[PATH_MAX];
static char libc_path[PATH_MAX];
static char libm_path[PATH_MAX];
static char libmvec_path[PATH_MAX];
static char version[PATH_MAX + 64];
static const struct refcl_toolchain *found;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *setting(const char *variable, const char *fallback)
{
    const char *value = secure_getenv(variable);
    return value && *value ? value : fallback;
}

/* @p dir/@p name into @p path, if it fits and is readable. */
static bool part(char *path, const char *dir, const char *name)
{
    int length = snprintf(path, PATH_MAX, "%s/%s", dir, name);
    return length > 0 && length < PATH_MAX && access(path, R_OK) == 0;
}

/* A C or math library to name to ld: @p variable's, or the link stub
 * @p stub (compiler/link/) in @p dir; NULL if there is neither. */
static const char *library(char *path, const char *variable, const char *dir,
                           const char *stub)
{
    const char *value = secure_getenv(variable);
    if (value && *value)
        return access(value, R_OK) == 0 ? value : NULL;
    return stub[0] && part(path, dir, stub) ? path : NULL;
}

static bool program(const char *path)
{
    return path[0] == '/' && access(path, X_OK) == 0;
}

static void find(void)
{
    const char *enabled = secure_getenv("REFCL_COMPILER");
    if (enabled && !strcmp(enabled, "0"))
        return;
    /* Absolute: clang runs in a temporary working directory. */
    static char dir[PATH_MAX];
    if (!realpath(setting("REFCL_COMPILER_DIR", REFCL_COMPILER_DIR_DEFAULT),
                  dir))
        return;
    toolchain.clang = setting("REFCL_CLANG", REFCL_CLANG_DEFAULT);
    toolchain.llvm_link = setting("REFCL_LLVM_LINK", REFCL_LLVM_LINK_DEFAULT);
    toolchain.ld = setting("REFCL_LD", REFCL_LD_DEFAULT);
    toolchain.libc = library(libc_path, "REFCL_LIBC", dir, REFCL_LIBC_STUB);
    toolchain.libm = library(libm_path, "REFCL_LIBM", dir, REFCL_LIBM_STUB);
    toolchain.libmvec =
        library(libmvec_path, "REFCL_LIBMVEC", dir, REFCL_LIBMVEC_STUB);
    toolchain.plugin = plugin_path;
    toolchain.builtins = builtins_path;
    toolchain.version = version;
    if (!program(toolchain.clang) || !program(toolchain.llvm_link) ||
        !program(toolchain.ld) || !toolchain.libc || !toolchain.libm ||
        (REFCL_LIBMVEC_STUB[0] && !toolchain.libmvec) ||
        !part(plugin_path, dir, REFCL_PLUGIN_NAME) ||
        !part(builtins_path, dir, REFCL_BUILTINS_NAME))
        return;
    const char *spirv = setting("REFCL_LLVM_SPIRV", REFCL_LLVM_SPIRV_DEFAULT);
    toolchain.llvm_spirv = program(spirv) ? spirv : NULL;
    const char *server = secure_getenv("REFCL_COMPILER_SERVER");
    bool serve = !(server && !strcmp(server, "0"));
    toolchain.server = serve && part(server_path, dir, REFCL_SERVER_NAME) &&
                       program(server_path) ? server_path : NULL;
    toolchain.server_links = toolchain.server && REFCL_SERVER_LINKS_DEFAULT;
    snprintf(version, sizeof(version), "refcl %s, LLVM %d, %s",
             REFCL_VERSION_STRING, REFCL_LLVM_MAJOR, toolchain.clang);
    found = &toolchain;
}

const struct refcl_toolchain *refcl_toolchain(void)
{
    pthread_once(&once, find);
    return found;
}

static bool installed(void)
{
    return refcl_toolchain() != NULL;
}

static char driver_version[64];
static pthread_once_t driver_version_once = PTHREAD_ONCE_INIT;

static void driver_version_make(void)
{
    snprintf(driver_version, sizeof(driver_version), "%s+%016llx",
             REFCL_VERSION_STRING,
             (unsigned long long)refcl_cache_compiler_identity(found));
}

/* The version with the compiler's identity as semver build metadata:
 * applications key their binary caches on CL_DRIVER_VERSION (pyopencl,
 * among others), and a binary an earlier compiler made must not outlive
 * that compiler there. */
static const char *compiler_driver_version(void)
{
    if (!installed())
        return REFCL_VERSION_STRING;
    pthread_once(&driver_version_once, driver_version_make);
    return driver_version;
}

/* The platform layer, below this one, learns at load what it reports of
 * the compiler and how clUnloadPlatformCompiler ends its processes. */
__attribute__((constructor)) static void compiler_register(void)
{
    static const struct refcl_compiler_hooks hooks = {
        .installed = installed,
        .driver_version = compiler_driver_version,
        .reads_il = refcl_toolchain_reads_il,
        .unload = refcl_server_release_idle,
    };
    refcl_platform_compiler_register(&hooks);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pool of persistent compiler processes (refcl/server.h). A server
 * is a child process with one end of a socket pair on its fd 3; it serves
 * one job at a time, so a builder takes an idle one or spawns one more,
 * and gives it back after (up to IDLE_MAX are kept). Both ends of the
 * socket are close-on-exec: the application's own children never inherit
 * them. A server that dies is reaped here and never given back; the pool
 * belongs to the process that spawned it: after fork() the child forgets
 * the parent's servers (their sockets are the parent's) and spawns its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "refcl/server.h"

/* Idle servers kept: one per thread that builds at once, up to this. */
#define IDLE_MAX 4
/* The socket's end in the server. */
#define SERVER_FD 3

struct server {
    pid_t pid;
    int fd;
    struct server *next;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct server *idle;
static unsigned idle_count;
static pid_t pool_owner; /* the process the idle servers belong to */

/* Waits for @p pid, retrying on EINTR. @return its status, or -1. */
static int reap(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

/* Closing the socket ends the server (it reads end-of-file); then it is
 * reaped, no zombie left. */
static void server_end(struct server *s)
{
    close(s->fd);
    reap(s->pid);
    free(s);
}

/* The server is still there (not exited or killed while idle). */
static bool server_alive(const struct server *s)
{
    int status;
    return waitpid(s->pid, &status, WNOHANG) == 0;
}

/* A dead idle server, already reaped by server_alive. */
static void server_forget(struct server *s)
{
    close(s->fd);
    free(s);
}

/* The server starts with default signal dispositions and none blocked,
 * whatever the application's: it must die of what kills a process. */
static bool default_signals(posix_spawnattr_t *attr)
{
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    return posix_spawnattr_init(attr) == 0 &&
           posix_spawnattr_setsigmask(attr, &none) == 0 &&
           posix_spawnattr_setsigdefault(attr, &all) == 0 &&
           posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK |
                                              POSIX_SPAWN_SETSIGDEF) == 0;
}

static int spawn(pid_t *pid, const char *program, int socket,
                 char *const env[])
{
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&actions) != 0)
        return ENOMEM;
    if (!default_signals(&attr)) {
        posix_spawn_file_actions_destroy(&actions);
        return ENOMEM;
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    /* dup2 clears close-on-exec in the child, even onto itself. */
    posix_spawn_file_actions_adddup2(&actions, socket, SERVER_FD);
    char *const argv[] = {(char *)program, NULL};
    int error = posix_spawn(pid, program, &actions, &attr, argv, env);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

static struct server *server_spawn(const char *program, char *const env[])
{
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return NULL;
    struct server *s = malloc(sizeof(*s));
    int error = s ? spawn(&s->pid, program, fds[1], env) : ENOMEM;
    close(fds[1]);
    if (error) {
        close(fds[0]);
        free(s);
        return NULL;
    }
    s->fd = fds[0];
    return s;
}

/* Takes an idle server of this process, or NULL. */
static struct server *take_idle(void)
{
    pthread_mutex_lock(&pool_lock);
    if (pool_owner != getpid()) {
        /* A fork()ed child: the sockets are the parent's servers'. */
        for (struct server *s = idle, *next; s; s = next) {
            next = s->next;
            close(s->fd);
            free(s);
        }
        idle = NULL;
        idle_count = 0;
        pool_owner = getpid();
    }
    struct server *s = idle;
    if (s) {
        idle = s->next;
        idle_count--;
    }
    pthread_mutex_unlock(&pool_lock);
    return s;
}

static void give_back(struct server *s)
{
    pthread_mutex_lock(&pool_lock);
    bool keep = idle_count < IDLE_MAX && pool_owner == getpid();
    if (keep) {
        s->next = idle;
        idle = s;
        idle_count++;
    }
    pthread_mutex_unlock(&pool_lock);
    if (!keep)
        server_end(s);
}

void refcl_server_release_idle(void)
{
    pthread_mutex_lock(&pool_lock);
    struct server *list = pool_owner == getpid() ? idle : NULL;
    idle = NULL;
    idle_count = 0;
    pthread_mutex_unlock(&pool_lock);
    for (struct server *s = list, *next; s; s = next) {
        next = s->next;
        server_end(s);
    }
}

/* All of @p size bytes at @p bytes sent (@p sending; never SIGPIPE,
 * whatever the application's disposition of it) or received. */
static bool transfer_all(int fd, char *bytes, size_t size, bool sending)
{
    while (size) {
        ssize_t n = sending ? send(fd, bytes, size, MSG_NOSIGNAL)
                            : recv(fd, bytes, size, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes += n;
        size -= (size_t)n;
    }
    return true;
}

/* @p s as u32 length + bytes at @p at; @return the end. */
static char *put_string(char *at, const char *s)
{
    uint32_t length = (uint32_t)strlen(s);
    memcpy(at, &length, sizeof(length));
    memcpy(at + sizeof(length), s, length);
    return at + sizeof(length) + length;
}

/* The request in one buffer, sent at once (one write, not one per
 * string). */
static bool send_request(int fd, const char *dir, char *const argv[])
{
    uint32_t count = 1;
    size_t size = sizeof(count) + sizeof(uint32_t) + strlen(dir);
    for (size_t i = 0; argv[i]; i++, count++)
        size += sizeof(uint32_t) + strlen(argv[i]);
    char *request = malloc(size);
    if (!request)
        return false;
    memcpy(request, &count, sizeof(count));
    char *at = put_string(request + sizeof(count), dir);
    for (size_t i = 0; argv[i]; i++)
        at = put_string(at, argv[i]);
    bool sent = transfer_all(fd, request, size, true);
    free(request);
    return sent;
}

static bool receive_status(int fd, int32_t *status)
{
    return transfer_all(fd, (char *)status, sizeof(*status), false);
}

/* The note for a server that died during a job, reaped here. */
static void tell_death(struct server *s, char *note, size_t room)
{
    close(s->fd);
    int status = reap(s->pid);
    if (status >= 0 && WIFSIGNALED(status))
        snprintf(note, room, "refcl: the compiler (refcl-compiler, pid %d) "
                 "died: killed by signal %d (%s)\n", (int)s->pid,
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(note, room, "refcl: the compiler (refcl-compiler, pid %d) "
                 "died: exit status %d\n", (int)s->pid,
                 status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    free(s);
}

/* An idle server that is still alive, or a new one. */
static struct server *server_get(const char *program, char *const env[])
{
    for (struct server *s; (s = take_idle());) {
        if (server_alive(s))
            return s;
        server_forget(s);
    }
    return server_spawn(program, env);
}

enum refcl_served refcl_server_run(const char *program, const char *dir,
                                   char *const argv[], char *const env[],
                                   int *exit_status, char *note,
                                   size_t note_room)
{
    struct server *s = server_get(program, env);
    if (!s)
        return REFCL_NOT_SERVED;
    if (!send_request(s->fd, dir, argv)) {
        /* Not delivered (it died idle, after the check): no job ran. */
        close(s->fd);
        reap(s->pid);
        free(s);
        return REFCL_NOT_SERVED;
    }
    int32_t status;
    if (!receive_status(s->fd, &status)) {
        tell_death(s, note, note_room);
        return REFCL_SERVER_DIED;
    }
    give_back(s);
    *exit_status = status;
    return REFCL_SERVED;
}

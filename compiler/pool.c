/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pool of persistent compiler processes (refcl/server.h). A server
 * is a child process with one end of a socket pair on its fd 3; it serves
 * one job at a time, so a builder takes an idle one or spawns one more,
 * and gives it back after (up to IDLE_MAX are kept). Both ends of the
 * socket are close-on-exec: the application's own children never inherit
 * them; the server inherits nothing else of the application's (every
 * other descriptor is closed in it). A server that dies is reaped here and
 * never given back; one that does not answer by the build's deadline is
 * killed. The pool belongs to the process that spawned it: a fork()ed
 * child closes its copies of the parent's sockets at once (pthread_atfork),
 * so that the parent's servers see the end of their connection when the
 * parent closes it, whatever the child does, and spawns its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
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
/* The servers lent to a job: a fork()ed child closes their sockets too. */
static struct server *lent;
static pid_t pool_owner; /* the process the idle servers belong to */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* Waits for @p pid, retrying on EINTR. @return its status, or -1. */
static int reap(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

/* An idle server has nothing to finish: it is killed, so that its end
 * never waits on it (it may be stopped), and reaped, no zombie left. */
static void server_end(struct server *s)
{
    close(s->fd);
    kill(s->pid, SIGKILL);
    reap(s->pid);
    free(s);
}

/* Closes and frees the servers of @p list, not waiting for any. */
static void forget_all(struct server *list)
{
    for (struct server *s = list, *next; s; s = next) {
        next = s->next;
        close(s->fd);
        free(s);
    }
}

/* fork(): the pool's lock is held across it, so that the child's copy of
 * the lists is whole; the child then drops every socket of the parent's
 * servers (theirs to end, not the child's) without waiting on any. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&pool_lock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&pool_lock);
}

static void fork_child(void)
{
    forget_all(idle);
    forget_all(lent);
    idle = lent = NULL;
    idle_count = 0;
    pool_owner = getpid();
    pthread_mutex_unlock(&pool_lock);
}

static void register_fork_handlers(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Removes @p s from the lent list, if there. Under pool_lock. */
static void unlend_locked(struct server *s)
{
    for (struct server **at = &lent; *at; at = &(*at)->next)
        if (*at == s) {
            *at = s->next;
            return;
        }
}

static void lend(struct server *s)
{
    pthread_mutex_lock(&pool_lock);
    s->next = lent;
    lent = s;
    pthread_mutex_unlock(&pool_lock);
}

static void unlend(struct server *s)
{
    pthread_mutex_lock(&pool_lock);
    unlend_locked(s);
    pthread_mutex_unlock(&pool_lock);
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
                 char *const env[], rlim_t memory)
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
    /* Nothing of the application's: its pipes must see their end, its
     * file locks go with it. */
    posix_spawn_file_actions_addclosefrom_np(&actions, SERVER_FD + 1);
    char *const argv[] = {(char *)program, NULL};
    int error = posix_spawn(pid, program, &actions, &attr, argv, env);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    /* Set on the new process (posix_spawn sets no limit): it has only
     * begun to run the server, which maps far less at start. */
    if (!error && memory) {
        struct rlimit limit = {memory, memory};
        prlimit(*pid, RLIMIT_AS, &limit, NULL);
    }
    return error;
}

static struct server *server_spawn(const char *program, char *const env[],
                                   rlim_t memory)
{
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return NULL;
    struct server *s = malloc(sizeof(*s));
    int error = s ? spawn(&s->pid, program, fds[1], env, memory) : ENOMEM;
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
    if (!pool_owner)
        pool_owner = getpid();
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
    unlend_locked(s);
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

int refcl_ms_until(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ms = (deadline->tv_sec - now.tv_sec) * 1000LL +
                   (deadline->tv_nsec - now.tv_nsec) / 1000000;
    return ms <= 0 ? 0 : ms > INT32_MAX ? INT32_MAX : (int)ms;
}

enum transfer { TRANSFERRED, BROKEN, TIMED_OUT };

/* All of @p size bytes at @p bytes sent (@p sending; never SIGPIPE,
 * whatever the application's disposition of it) or received, by
 * @p deadline. */
static enum transfer transfer_all(int fd, char *bytes, size_t size,
                                  bool sending,
                                  const struct timespec *deadline)
{
    while (size) {
        struct pollfd p = {fd, sending ? POLLOUT : POLLIN, 0};
        int ready = poll(&p, 1, refcl_ms_until(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return TIMED_OUT;
        ssize_t n = ready < 0 ? -1
                    : sending ? send(fd, bytes, size,
                                     MSG_NOSIGNAL | MSG_DONTWAIT)
                              : recv(fd, bytes, size, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return BROKEN;
        bytes += n;
        size -= (size_t)n;
    }
    return TRANSFERRED;
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
static enum transfer send_request(int fd, const char *dir,
                                  char *const argv[],
                                  const struct timespec *deadline)
{
    uint32_t count = 1;
    size_t size = sizeof(count) + sizeof(uint32_t) + strlen(dir);
    for (size_t i = 0; argv[i]; i++, count++)
        size += sizeof(uint32_t) + strlen(argv[i]);
    char *request = malloc(size);
    if (!request)
        return BROKEN;
    memcpy(request, &count, sizeof(count));
    char *at = put_string(request + sizeof(count), dir);
    for (size_t i = 0; argv[i]; i++)
        at = put_string(at, argv[i]);
    enum transfer sent = transfer_all(fd, request, size, true, deadline);
    free(request);
    return sent;
}

static enum transfer receive_status(int fd, int32_t *status,
                                    const struct timespec *deadline)
{
    return transfer_all(fd, (char *)status, sizeof(*status), false,
                        deadline);
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

/* An idle server that is still alive, or a new one; lent to the caller
 * until given back or ended. */
static struct server *server_get(const char *program, char *const env[],
                                 rlim_t memory)
{
    pthread_once(&fork_once, register_fork_handlers);
    struct server *s;
    while ((s = take_idle()) && !server_alive(s))
        server_forget(s);
    if (!s)
        s = server_spawn(program, env, memory);
    if (s)
        lend(s);
    return s;
}

/* A server past the deadline, stopped or busy: killed and reaped. */
static void server_kill(struct server *s)
{
    unlend(s);
    kill(s->pid, SIGKILL);
    close(s->fd);
    reap(s->pid);
    free(s);
}

enum refcl_served refcl_server_run(const char *program, const char *dir,
                                   char *const argv[], char *const env[],
                                   const struct refcl_job_limits *limits,
                                   int *exit_status, char *note,
                                   size_t note_room)
{
    struct server *s = server_get(program, env, limits->memory);
    if (!s)
        return REFCL_NOT_SERVED;
    enum transfer sent = send_request(s->fd, dir, argv, &limits->deadline);
    if (sent != TRANSFERRED) {
        /* Not delivered (it died idle, after the check, or is stopped):
         * no job ran. */
        server_kill(s);
        return sent == TIMED_OUT ? REFCL_SERVER_TIMED_OUT : REFCL_NOT_SERVED;
    }
    int32_t status;
    enum transfer received = receive_status(s->fd, &status,
                                            &limits->deadline);
    if (received == TIMED_OUT) {
        server_kill(s);
        return REFCL_SERVER_TIMED_OUT;
    }
    if (received != TRANSFERRED) {
        unlend(s);
        tell_death(s, note, note_room);
        return REFCL_SERVER_DIED;
    }
    give_back(s);
    *exit_status = status;
    return REFCL_SERVED;
}

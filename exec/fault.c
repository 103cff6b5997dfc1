/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Faults in compiled kernels. A kernel that dereferences a bad pointer
 * raises SIGSEGV or SIGBUS on the thread that runs it; SIGFPE is caught
 * too, though the work-group pass keeps integer division from trapping
 * (compiler/pass/division.cpp); so are SIGILL and SIGTRAP (a trap
 * instruction: __builtin_trap, __builtin_debugtrap, clang's checks) and
 * SIGSYS (a system call seccomp refuses). refcl catches the
 * signal there and ends the command with an error (exec/ndrange.c)
 * rather than let the application die. The handler is process-wide and
 * installed at the first run of a compiled kernel: for a fault on a thread
 * not inside a kernel, it hands the signal to the handler it replaced (or
 * to the default action). Each thread that runs kernels gets an alternate
 * signal stack, so that a kernel that overflows its stack is caught too.
 * docs/kernels.md gives the limits.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/exec.h"

/* Bytes of each thread's alternate signal stack: the handler only jumps
 * or chains, but a chained handler (a sanitizer's) needs room. */
#define ALT_STACK_BYTES (64u * 1024u)

/* Where the calling thread's running body jumps to on a fault, or NULL
 * outside bodies. Initial-exec: the handler reads it with no allocation,
 * on any thread. */
static _Thread_local sigjmp_buf *catcher
    __attribute__((tls_model("initial-exec")));
/* What the calling thread's last caught fault was. */
static _Thread_local struct refcl_kernel_fault last_fault
    __attribute__((tls_model("initial-exec")));

/* The signals caught, and the actions they had before. */
static const int caught[] = {SIGSEGV, SIGBUS, SIGFPE,
                             SIGILL, SIGTRAP, SIGSYS};
#define CAUGHT (sizeof(caught) / sizeof(caught[0]))
static struct sigaction replaced[CAUGHT];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static bool installed;
static pthread_key_t alt_stack_key;

/* A fault outside kernels: what would have happened without refcl. */
static void chain(int sig, siginfo_t *info, void *context)
{
    size_t i = 0;
    while (i + 1 < CAUGHT && caught[i] != sig)
        i++;
    const struct sigaction *old = &replaced[i];
    if (old->sa_flags & SA_SIGINFO) {
        old->sa_sigaction(sig, info, context);
        return;
    }
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
        return;
    }
    /* The default action (a fault cannot be ignored): restored, and the
     * signal raised again, pending until this handler returns. */
    struct sigaction fallback = {.sa_handler = SIG_DFL};
    sigaction(sig, &fallback, NULL);
    raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *context)
{
    sigjmp_buf *jump = catcher;
    if (!jump) {
        chain(sig, info, context);
        return;
    }
    catcher = NULL;
    last_fault = (struct refcl_kernel_fault){sig, info->si_addr};
    siglongjmp(*jump, 1);
}

/* Thread exit: the thread's alternate stack is let go. */
static void alt_stack_free(void *stack)
{
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && current.ss_sp == stack) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    free(stack);
}

static void install(void)
{
    if (pthread_key_create(&alt_stack_key, alt_stack_free) != 0)
        return;
    struct sigaction action = {.sa_sigaction = on_fault,
                               .sa_flags = SA_SIGINFO | SA_ONSTACK};
    sigemptyset(&action.sa_mask);
    installed = true;
    for (size_t i = 0; i < CAUGHT; i++)
        installed &= sigaction(caught[i], &action, &replaced[i]) == 0;
}

/* Library unload: the application's handlers back, before the code of
 * this one goes. No kernel runs by then: the queues' and teams' threads
 * are joined. */
__attribute__((destructor)) static void uninstall(void)
{
    if (!installed)
        return;
    for (size_t i = 0; i < CAUGHT; i++)
        sigaction(caught[i], &replaced[i], NULL);
}

/* Gives the calling thread an alternate signal stack unless it has one
 * (its own, or the application's or a sanitizer's, which serve as well). */
static void alt_stack_ensure(void)
{
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE))
        return;
    stack_t stack = {.ss_sp = malloc(ALT_STACK_BYTES),
                     .ss_size = ALT_STACK_BYTES};
    if (!stack.ss_sp)
        return; /* the handler then runs on the thread's stack */
    if (sigaltstack(&stack, NULL) != 0 ||
        pthread_setspecific(alt_stack_key, stack.ss_sp) != 0) {
        alt_stack_free(stack.ss_sp);
        return;
    }
}

bool refcl_fault_catch(void (*body)(void *), void *arg,
                       struct refcl_kernel_fault *fault)
{
    pthread_once(&install_once, install);
    if (!installed) {
        body(arg);
        return true;
    }
    alt_stack_ensure();
    /* refcl's threads block every signal; a fault blocked is fatal. The
     * mask is put back by hand on both ways out (sigsetjmp need not save
     * it: one system call fewer). */
    sigset_t faults, mask;
    sigemptyset(&faults);
    for (size_t i = 0; i < CAUGHT; i++)
        sigaddset(&faults, caught[i]);
    pthread_sigmask(SIG_UNBLOCK, &faults, &mask);
    sigjmp_buf jump;
    sigjmp_buf *outer = catcher;
    bool finished = false;
    if (sigsetjmp(jump, 0) == 0) {
        catcher = &jump;
        body(arg);
        finished = true;
    }
    catcher = outer;
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (!finished)
        *fault = last_fault;
    return finished;
}

const char *refcl_fault_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGSYS:
        return "SIGSYS";
    default:
        return "a signal";
    }
}

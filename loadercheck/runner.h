/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running checks in child processes (runner.c).
 */
#ifndef LOADERCHECK_RUNNER_H
#define LOADERCHECK_RUNNER_H

#include <signal.h>

#include "check.h"

/** Set by main.c's handler of SIGINT, SIGTERM and SIGHUP: the run stops,
 *  its child is killed, the checks not run are reported as such. */
extern volatile sig_atomic_t runner_stop;

struct run {
    const struct check *checks;
    const bool *selected;       /**< --only: which checks run */
    struct outcome *outcomes;   /**< one per check */
    bool *done;                 /**< outcomes[i] is set */
    const char *dir;            /**< where the scenario's vendors are */
    const char *loader;         /**< the loader under test */
    unsigned timeout;           /**< seconds a check may take */
    cl_ulong seed;              /**< --seed, for the forced calls */
};

/** Runs checks[first..last], all of one scenario, setting their outcomes. */
void runner_scenario(struct run *run, size_t first, size_t last);

#endif /* LOADERCHECK_RUNNER_H */

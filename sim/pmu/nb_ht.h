/*
 * nb_ht.h - Hyper-Threading placement of guest threads on the two logical
 * processors (LPs) of the modelled package.  Pure (no libc, no valgrind);
 * unit-tested by sim/tests/unit/t_ht.c.
 *
 * Policy (a model choice, sim/README.md "Hyper-Threading"):
 *  - fixed (the default): the thread with valgrind ThreadId t (1 = the
 *    main thread) runs on LP (t - 1) mod 2 for its whole life, so the main
 *    thread is on LP0 and the first thread it creates on LP1.
 *  - migrate (--nbsim-ht-place=migrate): the two scheduler decisions of
 *    Linux that move tasks between the CPUs of an SMT core, made
 *    deterministic.  Fork placement [kernel/sched/fair.c
 *    select_task_rq_fair with SD_BALANCE_FORK: the idlest CPU of the
 *    domain]: a new thread goes to the LP with fewer live threads, on a
 *    tie to LP (t - 1) mod 2.  Idle balancing [fair.c newidle_balance /
 *    load_balance: a CPU whose runqueue got shorter pulls a task from the
 *    busiest one]: when a thread exits and its LP is left with two or more
 *    live threads fewer than the other, the other LP's live thread with
 *    the highest ThreadId that may move (not running, the caller's test)
 *    moves to it.
 * Without HT every thread runs on LP0.  An LP is active while at least one
 * live thread is placed on it (the ActiveThread qualification of the CCCRs
 * [SDM 18.16.1] depends on it).  home: the LP a thread was created on;
 * the PMU registers it programs are that LP's (nb_ctx.c re-targets them
 * after a move, as Linux perf re-programs a task's event for the thread
 * of the CPU it runs on: arch/x86/events/intel/p4.c p4_pmu_swap_config_ts).
 */
#ifndef NB_HT_H
#define NB_HT_H

#define NB_HT_MAXT 1024          /* ThreadIds tracked (valgrind: 500)  */

enum { NB_HT_FIXED = 0, NB_HT_MIGRATE = 1 };

struct nb_ht {
	int ht;                  /* Hyper-Threading modelled         */
	int place;               /* NB_HT_FIXED or NB_HT_MIGRATE     */
	unsigned live[2];        /* live threads per LP              */
	unsigned moves;          /* threads moved                    */
	unsigned char lp[NB_HT_MAXT];    /* where thread t runs      */
	unsigned char home[NB_HT_MAXT];  /* where it was created     */
	unsigned char alive[NB_HT_MAXT];
};

/* Only the main thread (ThreadId 1) is alive; placement fixed. */
void nb_ht_init(struct nb_ht *h, int ht);
void nb_ht_set_place(struct nb_ht *h, int place);

/* The LP thread tid runs on / was created on. */
unsigned nb_ht_lp(const struct nb_ht *h, unsigned tid);
unsigned nb_ht_home(const struct nb_ht *h, unsigned tid);

/* Thread tid was created / exits. */
void nb_ht_create(struct nb_ht *h, unsigned tid);
void nb_ht_exit(struct nb_ht *h, unsigned tid);

/*
 * Idle balancing after an exit (migrate only): if one LP has two or more
 * live threads more than the other, move the highest ThreadId of the busier
 * LP for which may_move(tid, arg) is true to the other LP.  Returns that
 * ThreadId (its old LP is 1 - nb_ht_lp of it), or 0 if none moved.
 */
unsigned nb_ht_balance(struct nb_ht *h, int (*may_move)(unsigned tid, void *arg), void *arg);

/* Bit lp set: LP lp is active. */
unsigned nb_ht_active(const struct nb_ht *h);

#endif

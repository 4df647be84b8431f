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
 * The binding (sched_setaffinity(2), sim/kernel/nb_affinity.c): each
 * thread has a mask of the LPs it may run on (bit lp), inherited from its
 * creator as Linux's child inherits its parent's affinity; a new thread
 * whose mask allows one LP only is placed there (either policy), idle
 * balancing never moves a thread against its mask, and a thread whose
 * mask comes to exclude its LP is moved by the caller (nb_ht_want,
 * nb_ht_move) when its context allows.
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
	unsigned char mask[NB_HT_MAXT];  /* LPs it may run on (bit lp)   */
};

/* Only the main thread (ThreadId 1) is alive; placement fixed. */
void nb_ht_init(struct nb_ht *h, int ht);
void nb_ht_set_place(struct nb_ht *h, int place);

/* The LP thread tid runs on / was created on. */
unsigned nb_ht_lp(const struct nb_ht *h, unsigned tid);
unsigned nb_ht_home(const struct nb_ht *h, unsigned tid);

/* Thread tid was created / exits.  nb_ht_create_by: by thread parent,
 * whose mask it inherits (0: none, every LP); nb_ht_create(h, t) is
 * nb_ht_create_by(h, t, 0). */
void nb_ht_create(struct nb_ht *h, unsigned tid);
void nb_ht_create_by(struct nb_ht *h, unsigned tid, unsigned parent);
void nb_ht_exit(struct nb_ht *h, unsigned tid);

/*
 * Idle balancing after an exit (migrate only): if one LP has two or more
 * live threads more than the other, move the highest ThreadId of the busier
 * LP whose mask allows the other and for which may_move(tid, arg) is true
 * to the other LP.  Returns that
 * ThreadId (its old LP is 1 - nb_ht_lp of it), or 0 if none moved.
 */
unsigned nb_ht_balance(struct nb_ht *h, int (*may_move)(unsigned tid, void *arg), void *arg);

/* The modelled LPs (1, 3 with HT); thread tid's mask. */
unsigned nb_ht_all(const struct nb_ht *h);
unsigned nb_ht_mask(const struct nb_ht *h, unsigned tid);

/* Thread tid may run on the LPs of mask from now on: the modelled ones of
 * it are recorded and returned; 0 (none of them: Linux's EINVAL for a
 * mask without an online CPU) records nothing. */
unsigned nb_ht_set_mask(struct nb_ht *h, unsigned tid, unsigned mask);

/* The LP live thread tid should run on: its own if its mask allows it,
 * else the other. */
unsigned nb_ht_want(const struct nb_ht *h, unsigned tid);

/* Move live thread tid to LP lp (rehome: its home too, as though created
 * there).  1 if it moved. */
int nb_ht_move(struct nb_ht *h, unsigned tid, unsigned lp, int rehome);

/* Bit lp set: LP lp is active. */
unsigned nb_ht_active(const struct nb_ht *h);

#endif

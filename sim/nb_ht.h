/*
 * nb_ht.h - Hyper-Threading placement of guest threads on the two logical
 * processors (LPs) of the modelled package.  Pure (no libc, no valgrind);
 * unit-tested by tests/t_ht.c.
 *
 * Rule (a model choice, sim/README.md "Hyper-Threading"): with HT the
 * thread with valgrind ThreadId t (1 = the main thread) runs on LP
 * (t - 1) mod 2, so the main thread is on LP0 and the first thread it
 * creates on LP1; without HT every thread runs on LP0.  An LP is active
 * while at least one live thread is placed on it (the ActiveThread
 * qualification of the CCCRs [SDM 18.16.1] depends on it).
 */
#ifndef NB_HT_H
#define NB_HT_H

struct nb_ht {
	int ht;                  /* Hyper-Threading modelled         */
	unsigned live[2];        /* live threads per LP              */
};

/* Only the main thread (ThreadId 1) is alive. */
void nb_ht_init(struct nb_ht *h, int ht);

/* The LP of thread tid. */
unsigned nb_ht_lp(const struct nb_ht *h, unsigned tid);

/* Thread tid was created / exits. */
void nb_ht_create(struct nb_ht *h, unsigned tid);
void nb_ht_exit(struct nb_ht *h, unsigned tid);

/* Bit lp set: LP lp is active. */
unsigned nb_ht_active(const struct nb_ht *h);

#endif

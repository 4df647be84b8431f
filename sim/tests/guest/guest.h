/* guest.h - what the nbsim guest tests (programs run under nbsim) share. */
#ifndef NB_GUEST_H
#define NB_GUEST_H

#include "tap.h"
#include "nbsim_client.h"
#include "nb_events.h"

/* WRMSR that must succeed: on a #GP, a TAP diagnostic with nbsim's reason
 * and 0; 1 on success. */
static inline int guest_wrmsr(uint32_t msr, uint64_t v)
{
	if (nbsim_wrmsr(msr, v) != NBSIM_OK) {
		char why[200];
		nbsim_last_fault(why, sizeof why);
		tap_diag("unexpected #GP: WRMSR %#x: %s", (unsigned)msr, why);
		return 0;
	}
	return 1;
}

/* One counted event: its ESCR, event and mask bits (T0 user mode). */
struct cnt {
	unsigned escr, ev;
	uint32_t mask;          /* event mask bits                       */
};
/* What a replay-tagging or helper-ESCR count needs besides (NULL: none) */
struct setup {
	uint64_t pebs, vert;    /* IA32_PEBS_ENABLE, MATRIX_VERT         */
	struct cnt helper;      /* a helper ESCR (ev 0 = none)           */
};

/* the lowest counter the ESCR feeds */
static inline unsigned guest_ctr_of(unsigned escr)
{
	unsigned c = 0;
	while (!(nb_escrs[escr].counters & (1u << c)))
		c++;
	return c;
}

static inline uint64_t guest_escr_val(const struct cnt *c)
{
	return ((uint64_t)nb_events[c->ev].event_select << NB_ESCR_EVSEL_SHIFT) |
		((uint64_t)c->mask << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
}

/* Program s (may be NULL) and c's ESCR, zero its counter and enable it;
 * 1 on success. */
static inline int guest_count_start(const struct cnt *c, const struct setup *s)
{
	unsigned ctr = guest_ctr_of(c->escr);
	uint64_t cccr = NB_CCCR_ENABLE |
		((uint64_t)nb_escrs[c->escr].select << NB_CCCR_ESCRSEL_SHIFT) |
		((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);

	return (!s || (guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, s->pebs) &&
		       guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, s->vert) &&
		       (!s->helper.ev ||
			guest_wrmsr(nb_escrs[s->helper.escr].msr, guest_escr_val(&s->helper))))) &&
		guest_wrmsr(nb_escrs[c->escr].msr, guest_escr_val(c)) &&
		guest_wrmsr(nb_counters[ctr].msr, 0) && guest_wrmsr(nb_counters[ctr].cccr_msr, cccr);
}

/* Disable c's counter, read it into *out and clear the ESCRs; 1 on success. */
static inline int guest_count_stop(const struct cnt *c, const struct setup *s, uint64_t *out)
{
	unsigned ctr = guest_ctr_of(c->escr);

	return guest_wrmsr(nb_counters[ctr].cccr_msr, 0) &&
		nbsim_rdmsr(nb_counters[ctr].msr, out) == NBSIM_OK &&
		(!s || !s->helper.ev || guest_wrmsr(nb_escrs[s->helper.escr].msr, 0)) &&
		guest_wrmsr(nb_escrs[c->escr].msr, 0);
}

/* A measured kernel: fn(p, n) runs n iterations of its loop. */
typedef void (*guest_kern_fn)(char *p, uint64_t n);

/* Count c over fn(p, n) with setup s, after pre() (uncounted, if not
 * NULL); 1 on success. */
static inline int guest_measure(const struct cnt *c, const struct setup *s, void (*pre)(void),
				guest_kern_fn fn, char *p, uint64_t n, uint64_t *out)
{
	if (pre)
		pre();
	if (!guest_count_start(c, s))
		return 0;
	fn(p, n);
	return guest_count_stop(c, s, out);
}

/* The difference method: a warm-up run of n1 iterations, then n1 and n2;
 * the difference of the last two counts (~0 on failure). */
static inline uint64_t guest_diff(const struct cnt *c, const struct setup *s, void (*pre)(void),
				  guest_kern_fn fn, char *p, uint64_t n1, uint64_t n2)
{
	uint64_t w, x, y;

	if (!guest_measure(c, s, pre, fn, p, n1, &w) || !guest_measure(c, s, pre, fn, p, n1, &x) ||
	    !guest_measure(c, s, pre, fn, p, n2, &y))
		return ~0ULL;
	return y - x;
}

#endif

/* guest.h - what the nbsim guest tests (programs run under nbsim) share. */
#ifndef NB_GUEST_H
#define NB_GUEST_H

#include "tap.h"
#include "nbsim_client.h"

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

#endif

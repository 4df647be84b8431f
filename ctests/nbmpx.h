/*
 * nbmpx.h - what the multiplexing C tests share: PAPI initialised with
 * software multiplexing and an empty multiplexed event set on our
 * component (a TAP bail-out naming the failing call otherwise).
 */
#ifndef NBMPX_H
#define NBMPX_H

#include <string.h>
#include "papi.h"
#include "nbtap.h"

/* The slice: 0.5 ms.  Under nbsim the timer ticks in simulated time
 * (docs/simulated-time.md), so PAPI's default 10 ms is the simulated
 * part's 10 ms: 34 M cycles at 3.4 GHz, and 26 events would need 884 M
 * cycles of loop to be measured once each.  0.5 ms (1.7 M cycles) is still
 * far above PAPI's shortest measured slice (MPX_MINCYC, 25,000 cycles). */
#define NB_MPX_SLICE_NS 500000

static inline int nb_mpx_eventset(void)
{
	int es = PAPI_NULL, rc;
	PAPI_option_t opt;

	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(rc));
	/* the multiplexing timer's interval, read by PAPI_multiplex_init
	 * (PAPI_DEF_MPX_NS would be the documented way, but PAPI 7.0.0's
	 * reads an uninitialised event set and crashes) */
	memset(&opt, 0, sizeof(opt));
	opt.itimer.ns = NB_MPX_SLICE_NS;
	if ((rc = PAPI_set_opt(PAPI_DEF_ITIMER_NS, &opt)) != PAPI_OK)
		tap_bail("PAPI_set_opt(PAPI_DEF_ITIMER_NS): %s", PAPI_strerror(rc));
	if ((rc = PAPI_multiplex_init()) != PAPI_OK || (rc = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (rc = PAPI_assign_eventset_component(es, 0)) != PAPI_OK ||
	    (rc = PAPI_set_multiplex(es)) != PAPI_OK)
		tap_bail("a multiplexed event set: %s", PAPI_strerror(rc));
	return es;
}

#endif

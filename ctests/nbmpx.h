/*
 * nbmpx.h - what the multiplexing C tests share: PAPI initialised with
 * software multiplexing and an empty multiplexed event set on our
 * component (a TAP bail-out naming the failing call otherwise).
 */
#ifndef NBMPX_H
#define NBMPX_H

#include "papi.h"
#include "nbtap.h"

static inline int nb_mpx_eventset(void)
{
	int es = PAPI_NULL, rc;

	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(rc));
	if ((rc = PAPI_multiplex_init()) != PAPI_OK || (rc = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (rc = PAPI_assign_eventset_component(es, 0)) != PAPI_OK ||
	    (rc = PAPI_set_multiplex(es)) != PAPI_OK)
		tap_bail("a multiplexed event set: %s", PAPI_strerror(rc));
	return es;
}

#endif

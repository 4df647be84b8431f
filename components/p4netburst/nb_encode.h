/*
 * nb_encode.h - placed events -> NetBurst register images.
 */
#ifndef NB_ENCODE_H
#define NB_ENCODE_H

#include "nb_sched.h"

/* Privilege levels counted when the event names no u/k modifier. */
#define NB_DOM_USER   0x1
#define NB_DOM_KERNEL 0x2

struct nb_regs {
	uint32_t escr_msr;
	uint32_t cccr_msr;
	uint64_t escr;           /* ESCR value                         */
	uint64_t cccr;           /* CCCR value, Enable set             */
	uint8_t counter;
};

/* ESCR and CCCR for SEL placed at SLOT, counted on logical processor 0
 * (thread T0 bits) with default privilege levels DOM. */
void nb_encode(const struct nb_evsel *sel, const struct nb_slot *slot,
	       unsigned dom, struct nb_regs *out);

#endif

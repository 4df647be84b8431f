/*
 * nb_decode.h - NetBurst register values back to events: a CCCR, an ESCR
 * and a counter number (as perfctr's perfex takes them: "cccr/escr@pmc",
 * seed 003 sec. "perfex"), and the replay MSRs back to a metric.  Pure.
 */
#ifndef NB_DECODE_H
#define NB_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include "nb_evsel.h"

struct nb_decoded {
	int event;               /* index into nb_events             */
	int escr;                /* index into nb_escrs              */
	unsigned counter;        /* 0..17                            */
	uint16_t masks;          /* defined event-mask bits set      */
	uint16_t unknown_masks;  /* set bits the event does not define */
	uint8_t threads;         /* ESCR bits 0-3: T1_USR T1_OS T0_USR T0_OS */
	int8_t tag;              /* TagValue bits if TagEnable, else -1 */
	struct nb_evsel sel;     /* as the component's selection (thread 0 bits
	                            give u/k; T1-only values give them too) */
	uint64_t cccr_val, escr_val;  /* as given */
};

/* Decode CCCR and ESCR values for COUNTER (0..17; bit 31 of a perfex
 * pmc, the fast-RDPMC flag, is ignored).  Returns 0, or -1 with the cause
 * in ERR (reserved bits, no ESCR with that select on the counter, no
 * event with that select on the ESCR). */
int nb_decode_regs(uint64_t cccr, uint64_t escr, uint64_t counter, struct nb_decoded *out,
		   char *err, size_t len);

/* Parse and decode a perfex "cccr/escr@pmc" string (numbers in C syntax). */
int nb_decode_perfex(const char *s, struct nb_decoded *out, char *err, size_t len);

/* Human-readable: "event:MASK...[:u=..][:k=..][:cmp=N][:cmpl][:edge]
 * [tag=N] on ESCR (counter NAME)".  Returns the length or -1. */
int nb_decode_format(const struct nb_decoded *d, char *buf, size_t len);

/* The replay metric counting EVENT:MASKS with IA32_PEBS_ENABLE and
 * MSR_PEBS_MATRIX_VERT values (bit 25, the PEBS bit, ignored), or -1. */
int nb_decode_metric(unsigned event, unsigned masks, uint32_t pebs_enable, uint32_t matrix_vert);

#endif

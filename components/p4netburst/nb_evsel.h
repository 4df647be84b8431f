/*
 * nb_evsel.h - one requested NetBurst event: which event, which masks and
 * which modifiers, parsed from and formatted to the component's names
 *
 *     event[:MASK...][:modifier[=value]...]
 *
 * or a tagged metric by its SDM name (metric[:modifier[=value]...]),
 * case-insensitive.  Pure code: no I/O, no PAPI types.
 *
 * Modifiers (canonical spelling first; formatted in this order):
 *   u=0|1, k=0|1    privilege (ESCR Tn_USR / Tn_OS); "u" alone means u=1
 *   thr=N           CCCR Compare on, Threshold N (0..15); cmp=N is accepted
 *   cmpl            CCCR Complement (needs thr)
 *   edge            CCCR Edge (needs thr)
 *   thread=W        CCCR ActiveThread: none (0), single (1), both (2),
 *                   any (3, the default: formatted as nothing)
 *   precise         PEBS; only on PEBS-capable events and on metrics whose
 *                   counting event is PEBS-capable
 *   cascade         count on a cascaded counter pair (CCCR Cascade, SDM
 *                   18.15.5.6): a 41-bit count (the alternate counts
 *                   after the first counter overflows); events only, not
 *                   precise
 * Boolean modifiers also take =0 / =1; =0 is the same as leaving them out.
 * libpfm4's replay "virtual masks" (replay_event:NBOGUS:L1_LD_MISS) select
 * the metric they stand for; the canonical name is then the metric's.
 * libpfm4's execution-tagging virtual masks TAG0..TAG3 on the upstream
 * events (x87_FP_uop:ALL:TAG1) set TagEnable and TagValue bit n in the
 * event's ESCR, as libpfm4 4.13 encodes them (pfmlib_intel_netburst.c:
 * tag_value |= 1 << n for each TAGn): the event still counts its uops, and
 * execution_event:NBOGUSn counts the tagged ones at retirement [SDM 18.15
 * execution tagging; seed 003 l.2264-2310].  Canonical form:
 * event:MASK...:TAGn...:modifiers.
 */
#ifndef NB_EVSEL_H
#define NB_EVSEL_H

#include <stddef.h>
#include <stdint.h>
#include "nb_events.h"

#define NB_NAME_MAX 256          /* longest name accepted or produced */

/* Modifier flags. */
#define NB_MOD_U      0x01       /* count at CPL 1-3 (ESCR Tn_USR)    */
#define NB_MOD_K      0x02       /* count at CPL 0   (ESCR Tn_OS)     */
#define NB_MOD_USET   0x04       /* u given explicitly                */
#define NB_MOD_KSET   0x08       /* k given explicitly                */

/* CCCR-side modifiers (struct nb_evsel.cccr). */
#define NB_CCCR_MOD_CMP     0x01 /* Compare on, threshold in .thr (cmp=N/thr=N) */
#define NB_CCCR_MOD_CMPL    0x02 /* Complement (cmpl)                 */
#define NB_CCCR_MOD_EDGE    0x04 /* Edge (edge)                       */
#define NB_CCCR_MOD_ACTIVE  0x08 /* ActiveThread given in .active     */
#define NB_CCCR_MOD_PRECISE 0x10 /* PEBS (precise)                    */
#define NB_CCCR_MOD_CASCADE 0x20 /* a cascaded counter pair (cascade) */

#define NB_SEL_EVENT  0          /* .event indexes nb_events          */
#define NB_SEL_METRIC 1          /* .event indexes nb_metrics         */

/* Always zero-initialise (memset/ = {0}): selections compare as bytes. */
struct nb_evsel {
	uint16_t event;          /* index into nb_events (or nb_metrics) */
	uint16_t masks;          /* event-mask bits (ESCR bits 9-24)  */
	uint8_t mods;            /* NB_MOD_*                          */
	uint8_t cccr;            /* NB_CCCR_MOD_*                     */
	uint8_t thr;             /* CCCR threshold 0..15              */
	uint8_t active;          /* CCCR ActiveThread 0..3            */
	uint8_t kind;            /* NB_SEL_*                          */
	uint8_t tag;             /* ESCR TagValue (bits 5-8) given by libpfm4's
	                            TAGn virtual masks: bit n per TAGn; not 0:
	                            TagEnable set.  Events only (the
	                            execution-tagging upstream events) */
	uint8_t twin;            /* 0; nb_record --ht=yes: 1 for the copy of
	                            a request that samples on the second
	                            logical processor (not deduplicated
	                            with the first)                   */
	uint8_t pad[1];          /* zero                              */
};

/* Same configuration (may share an ESCR / dedupe as one native event). */
int nb_evsel_same(const struct nb_evsel *a, const struct nb_evsel *b);

/* Error codes of the parser (mapped to PAPI codes by the glue). */
enum nb_parse_err {
	NB_PARSE_OK = 0,
	NB_PARSE_NOEVENT,        /* unknown event name                */
	NB_PARSE_NOMASK,         /* unknown mask or modifier          */
	NB_PARSE_BADVALUE,       /* modifier value out of range       */
	NB_PARSE_TOOLONG,        /* name longer than NB_NAME_MAX      */
	NB_PARSE_SYNTAX,         /* empty part, stray '=' ...         */
	NB_PARSE_DUP,            /* mask or modifier given twice      */
	NB_PARSE_MODEL,          /* not on the running CPU model      */
	NB_PARSE_NOTALLOWED,     /* modifier/mask not allowed here    */
};

/* Name of an nb_parse_err, for messages and tests. */
const char *nb_parse_strerror(int err);

/*
 * Parse NAME for CPU model MODEL (family-15 model number) with features
 * FEATS (NB_FEAT_*).  libpfm4's spellings of events and masks are accepted.  On error,
 * writes a message naming the cause into ERR (ERRLEN bytes) and returns
 * an nb_parse_err.  A leading "p4netburst:::" is accepted.
 */
int nb_evsel_parse(const char *name, unsigned model, unsigned feats,
		   struct nb_evsel *out, char *err, size_t errlen);

/* Can SEL be counted as it stands?  An event without default masks that
 * was named without masks parses (so that every enumerated name resolves)
 * but cannot be counted.  Tagged metrics are refused until the scheduler
 * places them (then drop that case).  Returns 0, or -1 with the cause. */
int nb_evsel_check(const struct nb_evsel *sel, char *err, size_t errlen);

/* Canonical name: event:MASK...(in bit order) or metric, then the
 * modifiers in the order above.  Returns the length, or -1 if BUF is too
 * small or SEL is not a valid selection. */
int nb_evsel_format(const struct nb_evsel *sel, char *buf, size_t len);

/* Long description of SEL (event or mask description; for a metric, its
 * counting event, helpers and PEBS MSR values; the modifiers it takes).
 * Always NUL-terminates when LEN > 0; returns 0, or -1 if truncated. */
int nb_evsel_describe(const struct nb_evsel *sel, char *buf, size_t len);

/* Metric index by name (case-insensitive), or -1. */
int nb_metric_lookup(const char *name, size_t n);

/* Does a CPU of MODEL with FEATS have this metric? */
int nb_metric_on_cpu(unsigned metric, unsigned model, unsigned feats);

/* May SEL's event or metric take the precise (PEBS) modifier? */
int nb_evsel_pebs_capable(const struct nb_evsel *sel);

/* Event index by name or alias (case-insensitive), or -1. */
int nb_event_lookup(const char *name, size_t n);

/* Masks the user gets when naming none. */
uint16_t nb_event_default_masks(unsigned event);

/* Does a CPU of MODEL with FEATS have this event / this mask of it? */
int nb_event_on_cpu(unsigned event, unsigned model, unsigned feats);
int nb_mask_on_cpu(const struct nb_mask *m, unsigned model, unsigned feats);

/* The NetBurst parts nbsim models (sim/cpu/nb_cpu.c, `nbsim --model=NAME`;
 * tests/unit/evsel_unit.c checks the two lists agree), by the names the
 * tools' --model takes and messages use. */
struct nb_part {
	const char *name;        /* nbsim --model= name                */
	unsigned model;          /* CPUID family-15 model              */
	unsigned feats;          /* NB_FEAT_*                          */
};
extern const struct nb_part nb_parts[];
extern const unsigned nb_num_parts;
#define NB_PART_DEFAULT "prescott"   /* nbsim's default (NB_CPU_DEFAULT) */

/* Part by name (case-insensitive), or NULL. */
const struct nb_part *nb_part_find(const char *name);

/* Name of the part with MODEL and FEATS, or NULL if nbsim models none. */
const char *nb_part_name(unsigned model, unsigned feats);

/* Where a name exists: "; it exists on xeonmp" (the modelled parts that
 * have it), or "; it exists on no modelled part" into BUF.  KIND is
 * NB_SEL_EVENT (IDX an event; MASK one of its masks or NULL) or
 * NB_SEL_METRIC (IDX a metric). */
void nb_evsel_where(int kind, unsigned idx, const struct nb_mask *mask,
		    char *buf, size_t len);

#endif

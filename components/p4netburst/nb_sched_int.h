/*
 * nb_sched_int.h - what the files of the scheduler share (private to
 * nb_sched*.c; callers see nb_sched.h only).
 *
 *   nb_sched.c          entry points: nb_sched_run (the culprit by
 *                       bisection), nb_schedule, names for messages
 *   nb_sched_tags.c     requests that tag uops themselves (libpfm4's
 *                       TAGn): clashes, pairing, bonds
 *   nb_sched_rules.c    the set-wide rules checked before any search:
 *                       PEBS, cascade, models, replay MSRs, front-end and
 *                       execution tagging
 *   nb_sched_search.c   configurations, the counters left to them, the
 *                       exact search per counter group, the tag maps
 *   nb_sched_fill.c     the placement found, as struct nb_assign
 *   nb_sched_explain.c  why a request cannot join the ones before it
 *
 * The method is described in nb_sched.c, the rules in nb_sched.h.
 */
#ifndef NB_SCHED_INT_H
#define NB_SCHED_INT_H

#include "nb_sched.h"

#define NBS_MAX_CFG  (NB_SCHED_MAX * (1 + NB_MAX_HELPERS))
#define NBS_MAX_CAND 3

/* A configuration: units (requests' counting units and metrics' helper
 * units) with identical ESCR images, which may share an ESCR. */
struct nbs_cfg {
	uint16_t event, masks;
	uint8_t mods, tag;       /* tag: NB_NO_TAG or TagValue bit */
	uint8_t utag;            /* TagValue a request gives (nb_evsel .tag), 0: none */
	uint8_t twin;            /* nb_evsel .twin: a second LP's copy, its own ESCR value
	                            (other T0/T1 bits: never shares an ESCR) */
	uint8_t group;
	uint8_t demand;          /* counting units (cascaded ones included) */
	uint8_t casc;            /* of which cascaded (a counter pair each) */
	uint8_t prec;            /* of which precise (counter 16; at most 1) */
	uint8_t helper;          /* has helper units */
	uint8_t ncand;
	uint8_t cand[NBS_MAX_CAND];
	uint8_t req;             /* bit j: cand[j] required (pinned helper) */
	uint8_t pick;            /* bit j: cand[j] chosen */
	uint8_t halves;          /* of the pick: bit 0 first half, bit 1 second */
};

/* One call's state: the requests, the CPU, what is usable, the
 * configurations and the search's progress. */
struct nbs_st {
	const struct nb_evsel *req;
	int n;
	const struct nb_sched_cpu *cpu;
	uint32_t usable;         /* counters we may use (16 not, with a precise request) */
	uint32_t usable_all;     /* the same, counter 16 included */
	int prec;                /* the precise request, or -1 */
	unsigned pebs;           /* its counter: 16 on LP0, 17 on LP1 (NB_SCHED_PEBS_COUNTER) */
	int setup16;             /* usable is set up for: 1 with, 0 without precise, -1 not yet */
	uint64_t escr_ok;        /* ESCRs on this model, not the sibling's */
	uint8_t low[NB_NUM_GROUPS];   /* lowest counter of each group */
	uint32_t halfmask[NB_NUM_GROUPS][2];  /* usable counters per half */
	uint8_t tagof[NB_SCHED_MAX];  /* execution metric request -> tag */
	unsigned utags;          /* TagValue bits the requests' TAGn use (kept as given) */
	struct nbs_cfg cfg[NBS_MAX_CFG];
	int ncfg;
	int unit_cfg[NB_SCHED_MAX];   /* counting unit of request i */
	int bad_group;           /* group that failed, or -1 */
	/* search state */
	int order[NBS_MAX_CFG];
	int norder;
	int cap[2];
	int kmax;                /* disjoint usable cascade pairs of the group */
	unsigned group;          /* the group being searched */
	uint64_t used;
	uint8_t npairs[NB_NUM_GROUPS];
	uint8_t pair[NB_NUM_GROUPS][4][2];   /* usable pairs {L, H}, alt(H) = L */
	uint8_t maxpairs[NB_NUM_GROUPS];
};

/* ---- facts derived from the tables (pmu.txt's wiring) ----------------- */

/* The half (0: the group's first counters, 1: its second) ESCR feeds. */
static inline unsigned nbs_half_of(const struct nbs_st *s, unsigned escr)
{
	const struct nb_escr *x = &nb_escrs[escr];

	return (x->counters >> s->low[x->group]) & 1 ? 0 : 1;
}

static inline uint32_t nbs_half_counters(const struct nbs_st *s, unsigned group, unsigned h)
{
	return s->halfmask[group][h];
}

static inline unsigned nbs_ctr_half(const struct nbs_st *s, unsigned g, unsigned ctr)
{
	return (s->halfmask[g][0] >> ctr) & 1 ? 0 : 1;
}

static inline int nbs_is_cascade(const struct nb_evsel *r)
{
	return r->kind == NB_SEL_EVENT && (r->cccr & NB_CCCR_MOD_CASCADE);
}

/* nb_sched_tags.c */
unsigned nbs_exec_count_bits(uint16_t masks);
int nbs_check_user_tags(struct nbs_st *s, char *why, size_t len);

/* nb_sched_rules.c: 0 if requests 0..s->n-1 agree on the shared
 * resources, KEY[i] the execution-tag key of request i (-1: none) and
 * NKEYS their number; else -1 and a message naming the requests. */
int nbs_check_global(struct nbs_st *s, int *key, int *nkeys, char *why, size_t len);

/* nb_sched_search.c */
void nbs_setup_counters(struct nbs_st *s, int with16);
int nbs_try_tags(struct nbs_st *s, const int *key, int nkeys, int next, unsigned taken, int sym);
int nbs_pairs_fit(const struct nbs_st *s, unsigned g, int i, uint32_t free_ctrs,
		  int d0, int d1, int f, uint8_t *ch);

/* nb_sched_fill.c */
void nbs_fill(struct nbs_st *s, struct nb_assign *out);

/* nb_sched_explain.c */
void nbs_explain(struct nbs_st *s, int k, char *why, size_t len);

#endif

/*
 * nb_ctx.c - per-thread PMU contexts in the tool: which guest thread's
 * context is loaded on each logical processor, and the switch when
 * valgrind runs another thread (nb_ctx_start, from nb_start_client).  The
 * registers' save and restore is the pure pmu_ctx.c; here the thread
 * table, the PEBS state of the LP (countdown, arming, IA32_DS_AREA) and
 * what must follow a switch (PMI budget, pending PMIs); and a thread's
 * move to the other logical processor (--nbsim-ht-place=migrate): its
 * context re-targeted to the mirror registers, its accesses mapped; and a
 * move by the thread's binding (sched_setaffinity, nb_ctx_rebind).  See
 * README.md "Per-thread counting" and "Hyper-Threading".
 */
#include "nb_tool.h"
#include "pmu/pmu_ctx.h"

struct nb_thr {
	struct nb_pmu_ctx pmu;
	Bool ds_used;                     /* wrote IA32_DS_AREA           */
	Bool cpu_wide;                    /* named counters by CPU        */
	Bool flip;                        /* runs on the other half than  */
					  /* it programs (HT migration)   */
	Bool pebs_armed;                  /* PEBS counter overflowed      */
	Bool tag_used;                    /* wrote IA32_PEBS_ENABLE or    */
					  /* MATRIX_VERT (without HT)     */
	uint64_t ds_area, pebs_enable, matrix_vert;
};

ULong nb_ctx_switches, nb_ctx_swaps, nb_ctx_counters, nb_ctx_reclaims;

static struct nb_thr **thr;              /* by ThreadId, VG_N_THREADS      */
static struct nb_thr nobody;             /* no thread (after an exit)      */
static ThreadId resident[2];             /* context loaded on each LP      */
static ThreadId running;
/* which thread went on which LP (--nbsim-stats): the first ones */
#define NB_CTX_LOG 64
static UChar lp_log[NB_CTX_LOG];
static UInt nlog;

static struct nb_thr *ctx_of(ThreadId tid)
{
	if (!tid)
		return &nobody;
	if (!thr)
		thr = VG_(calloc)("nbsim.ctx", VG_N_THREADS, sizeof *thr);
	if (!thr[tid]) {
		thr[tid] = VG_(malloc)("nbsim.ctx1", sizeof *thr[tid]);
		nb_pmu_ctx_init(&thr[tid]->pmu);
		thr[tid]->ds_used = thr[tid]->pebs_armed = False;
		thr[tid]->cpu_wide = thr[tid]->flip = False;
		thr[tid]->ds_area = 0;
		thr[tid]->tag_used = False;
		thr[tid]->pebs_enable = thr[tid]->matrix_vert = 0;
	}
	return thr[tid];
}

/* The context loaded on the other LP (HT), or NULL. */
static struct nb_pmu_ctx *sib_of(unsigned lp)
{
	return clo_ht ? &ctx_of(resident[lp ^ 1])->pmu : NULL;
}

/* Without HT, replay tagging (IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT) is
 * the thread's: OUT's values saved, IN's written, as Linux's P4 driver
 * writes the event's PEBS_ENABLE and MATRIX_VERT bits each time it enables
 * the event at the task's sched-in [arch/x86/events/intel/p4.c
 * p4_pmu_enable_pebs, called from p4_pmu_enable_event].  Under HT they
 * stay the package's (their thread bits are relative to the writer; the
 * component combines both LPs' values). */
static void tag_swap(struct nb_thr *out, struct nb_thr *in)
{
	uint64_t pe = 0, mv = 0;

	if (clo_ht || !(out->tag_used || in->tag_used))
		return;
	nb_pmu_access();
	nb_pmu_sync(&nb_pmu_state, nb_sig);
	(void)nb_pmu_rdmsr(&nb_pmu_state, NB_MSR_IA32_PEBS_ENABLE, &pe, nb_sig);
	(void)nb_pmu_rdmsr(&nb_pmu_state, NB_MSR_MSR_PEBS_MATRIX_VERT, &mv, nb_sig);
	out->pebs_enable = pe;
	out->matrix_vert = mv;
	pe = in->tag_used ? in->pebs_enable : 0;
	mv = in->tag_used ? in->matrix_vert : 0;
	(void)nb_pmu_wrmsr(&nb_pmu_state, NB_MSR_IA32_PEBS_ENABLE, pe, nb_sig);
	(void)nb_pmu_wrmsr(&nb_pmu_state, NB_MSR_MSR_PEBS_MATRIX_VERT, mv, nb_sig);
	nb_pmu_written(NB_MSR_IA32_PEBS_ENABLE);
}

/* Load IN's context on LP lp in place of OUT's (the PMU counts for lp). */
static void ctx_swap(unsigned lp, struct nb_thr *out, struct nb_thr *in)
{
	if (out->ds_used || in->ds_used) {
		out->ds_area = nb_ds_area[lp];
		nb_ds_area[lp] = in->ds_used ? in->ds_area : 0;
	}
	tag_swap(out, in);
	if (!nb_pmu_ctx_holds(&nb_pmu_state, &out->pmu, &in->pmu))
		return;
	nb_ctx_swaps++;
	nb_ctx_counters += (ULong)__builtin_popcount((out->pmu.used | in->pmu.used |
						      nb_pmu_state.touched) & ~nb_pmu_state.cpu_wide);
	nb_pmu_access();
	out->pebs_armed = nb_pebs_armed_get(lp);
	(void)nb_pmu_ctx_switch(&nb_pmu_state, &out->pmu, &in->pmu, sib_of(lp), nb_sig);
	nb_pebs_armed_set(lp, in->pebs_armed);
	nb_pmu_written(0);
	/* a PMI the incoming thread's counter raised before it was
	 * switched out: the next check delivers it to the thread */
	if (nb_pmu_state.pmi_pending | nb_pmu_state.pmi_pending_t1)
		nb_pmi_budget = 0;
}

/* tid, resident on LP lp, runs again: the registers the sibling's
 * context took meanwhile come back (nb_pmu_ctx_reclaim) */
static void ctx_reclaim(unsigned lp, struct nb_thr *t)
{
	if (!clo_ht || !((t->pmu.used & ~t->pmu.live) | (t->pmu.used_escr & ~t->pmu.live_escr)))
		return;
	nb_pmu_access();
	if (!nb_pmu_ctx_reclaim(&nb_pmu_state, &t->pmu, sib_of(lp), nb_sig))
		return;
	nb_ctx_reclaims++;
	nb_pmu_written(0);
	if (nb_pmu_state.pmi_pending | nb_pmu_state.pmi_pending_t1)
		nb_pmi_budget = 0;
}

ThreadId nb_ctx_running(void)
{
	return running;
}

void nb_ctx_start(ThreadId tid)
{
	unsigned lp;

	if (tid == running)
		return;
	nb_ctx_switches++;
	if (clo_ctx_cpu) {
		running = tid;
		return;
	}
	/* the registers the previous thread wrote are its context's */
	if (running && (nb_pmu_state.touched | nb_pmu_state.touched_escr))
		nb_pmu_ctx_note(&nb_pmu_state, &ctx_of(running)->pmu,
				sib_of(nb_lp_of(running)));
	running = tid;
	lp = nb_lp_of(tid);
	if (resident[lp] == tid) {
		ctx_reclaim(lp, ctx_of(tid));
		return;
	}
	if (VG_(clo_verbosity) > 2)
		VG_(umsg)("ctx: LP%u %u -> %u (running %u) used %#x -> %#x ctr12 %llu\n", lp, resident[lp], tid,
			  running, ctx_of(resident[lp])->pmu.used, ctx_of(tid)->pmu.used, (ULong)nb_pmu_state.ctr[12]);
	ctx_swap(lp, ctx_of(resident[lp]), ctx_of(tid));
	resident[lp] = tid;
}

/* Before the running thread tid writes MSR msr (HT): the sibling LP's
 * context gives up the register, keeping its value. */
void nb_ctx_before_write(ThreadId tid, uint32_t msr)
{
	uint32_t c;
	uint64_t e;

	if (clo_ctx_cpu || !clo_ht)
		return;
	nb_pmu_reg_of(msr, &c, &e);
	if (c | e)
		nb_pmu_ctx_claim(&nb_pmu_state, sib_of(nb_lp_of(tid)), c, e);
}

void nb_ctx_wrote_ds_area(ThreadId tid, uint64_t v)
{
	struct nb_thr *t = ctx_of(tid);

	if (clo_ctx_cpu)
		return;
	t->ds_used = v != 0;
	t->ds_area = v;
}

/* Thread tid wrote IA32_PEBS_ENABLE or MSR_PEBS_MATRIX_VERT (tag_swap). */
void nb_ctx_wrote_tagging(ThreadId tid)
{
	if (clo_ctx_cpu || clo_ht)
		return;
	ctx_of(tid)->tag_used = True;
}

void nb_ctx_cpu_wide(ThreadId tid, uint32_t mask, Bool on)
{
	if (on)
		ctx_of(tid)->cpu_wide = True;
	nb_pmu_ctx_cpu_wide(&nb_pmu_state, &ctx_of(tid)->pmu, mask, on);
}

void nb_ctx_created(ThreadId child)
{
	if (nlog < NB_CTX_LOG)
		lp_log[nlog++] = (UChar)((child & 0x7f) | (nb_lp_of(child) << 7));
}

void nb_ctx_exit(ThreadId tid)
{
	unsigned lp = nb_lp_of(tid);

	if (!thr || !thr[tid])
		return;
	if (VG_(clo_verbosity) > 2)
		VG_(umsg)("ctx: exit %u on LP%u resident %u running %u\n", tid, lp, resident[lp], running);
	/* its counters stop with it: the LP is left without a context */
	if (!clo_ctx_cpu && resident[lp] == tid) {
		if (running == tid && (nb_pmu_state.touched | nb_pmu_state.touched_escr))
			nb_pmu_ctx_note(&nb_pmu_state, &thr[tid]->pmu, sib_of(lp));
		ctx_swap(lp, thr[tid], &nobody);
		resident[lp] = 0;
	}
	if (running == tid)
		running = 0;
	VG_(free)(thr[tid]);
	thr[tid] = NULL;
}

/* ---- HT migration (--nbsim-ht-place=migrate; README "Hyper-Threading") ---- */

ULong nb_ctx_moves;
#define NB_MOVE_LOG 32
static struct { UShort tid, after; UChar to; } move_log[NB_MOVE_LOG];
static UInt nmoves;

static void log_move(ThreadId tid, unsigned to, ThreadId after)
{
	nb_ctx_moves++;
	if (nmoves < NB_MOVE_LOG) {
		move_log[nmoves].tid = (UShort)tid;
		move_log[nmoves].after = (UShort)after;
		move_log[nmoves].to = (UChar)to;
		nmoves++;
	}
}

/* May thread tid move to the other LP?  Not while its context cannot be
 * re-targeted: PEBS or the DS area in use, counters named by CPU (they
 * count their LP, not the thread), a register without a mirror, replay
 * tagging programmed (IA32_PEBS_ENABLE / MATRIX_VERT are the package's,
 * their thread bits relative to the writer), inside its PMI handler. */
Bool nb_ctx_may_move(ThreadId tid)
{
	struct nb_thr *t = thr && tid < VG_N_THREADS ? thr[tid] : NULL;
	uint64_t pe = 0, mv = 0;

	if (clo_ctx_cpu || tid == running || nb_pmi_in_handler(tid))
		return False;
	(void)nb_pmu_rdmsr(&nb_pmu_state, NB_MSR_IA32_PEBS_ENABLE, &pe, nb_sig);
	(void)nb_pmu_rdmsr(&nb_pmu_state, NB_MSR_MSR_PEBS_MATRIX_VERT, &mv, nb_sig);
	if (pe || mv)
		return False;
	if (!t)
		return True;
	return !t->ds_used && !t->pebs_armed && !t->cpu_wide && nb_pmu_ctx_can_mirror(&t->pmu);
}

/* Thread tid moved from LP `from` to the other one (nb_ht_balance) when
 * thread `after` exited (0: by its binding, nb_ctx_rebind): its context
 * leaves `from` and is re-targeted to the mirror registers, and its own
 * accesses from now on go to them. */
void nb_ctx_moved(ThreadId tid, unsigned from, ThreadId after)
{
	struct nb_thr *t = ctx_of(tid);

	log_move(tid, from ^ 1, after);
	if (resident[from] == tid) {
		ctx_swap(from, t, &nobody);
		resident[from] = 0;
	}
	if (nb_lp_tid[from] == tid)
		nb_lp_tid[from] = 0, nb_lp_lwpid[from] = 0;
	tl_assert(nb_pmu_ctx_mirror(&t->pmu) == 0);
	t->flip = !t->flip;
	if (VG_(clo_verbosity) > 2)
		VG_(umsg)("ctx: thread %u LP%u -> LP%u (after %u exited), flip %d\n", tid, from,
			  from ^ 1, after, (int)t->flip);
}

/*
 * Thread tid, on LP from, is to move to the other LP by its binding
 * (sched_setaffinity: nb_main.c nb_thread_settle).  The running thread
 * too, at its system call: the registers it wrote since it was loaded
 * are its context's first.  Returns 0: not now (in its PMI handler, or
 * holding registers that cannot follow it: below); 1: its context holds
 * nothing, or the registers are the CPU's (--nbsim-pmu-ctx=cpu, whole-
 * program counting): it moves as though created on the other LP, its
 * home too (INFO's logical_cpu: it programs that LP's registers from
 * now on); 2: its context is re-targeted to the mirror registers, as
 * at an idle balancing move (nb_ctx_moved), its home kept.  2 only under
 * --nbsim-ht-place=migrate: there the component places each LP's event
 * sets on that LP's half, so a moved thread's mirrors never meet the
 * other LP's; under fixed placement a set uses both halves, and a
 * thread holding registers moves when it holds none (at one of its later
 * system calls: nb_main.c).
 */
int nb_ctx_rebind(ThreadId tid, unsigned from)
{
	struct nb_thr *t;
	Bool run = !clo_ctx_cpu && tid == running;
	uint64_t pe = 0, mv = 0;

	if (nb_pmi_in_handler(tid))
		return 0;
	if (clo_ctx_cpu) {
		log_move(tid, from ^ 1, 0);
		return 1;
	}
	if (run && (nb_pmu_state.touched | nb_pmu_state.touched_escr))
		nb_pmu_ctx_note(&nb_pmu_state, &ctx_of(tid)->pmu, sib_of(from));
	t = thr && tid < VG_N_THREADS ? thr[tid] : NULL;
	if (!t || (!t->pmu.used && !t->pmu.used_escr && !t->ds_used && !t->cpu_wide &&
		   !t->tag_used && !t->pebs_armed)) {
		if (t && resident[from] == tid) {
			ctx_swap(from, t, &nobody);
			resident[from] = 0;
		}
		if (t)
			t->flip = False;
		if (run)
			running = 0;
		log_move(tid, from ^ 1, 0);
		return 1;
	}
	if (nb_ht_state.place != NB_HT_MIGRATE)
		return 0;
	(void)nb_pmu_rdmsr(&nb_pmu_state, NB_MSR_IA32_PEBS_ENABLE, &pe, nb_sig);
	(void)nb_pmu_rdmsr(&nb_pmu_state, NB_MSR_MSR_PEBS_MATRIX_VERT, &mv, nb_sig);
	if (pe || mv || t->ds_used || t->pebs_armed || t->cpu_wide || !nb_pmu_ctx_can_mirror(&t->pmu))
		return 0;
	nb_ctx_moved(tid, from, 0);
	if (run)
		running = 0;
	return 2;
}

/* Thread tid's view of the PMU: after an odd number of moves the registers
 * it names are the mirror ones (README "Hyper-Threading"). */
static Bool flipped(ThreadId tid)
{
	return !clo_ctx_cpu && thr && tid && tid < VG_N_THREADS && thr[tid] && thr[tid]->flip;
}

/* The MSR thread tid's access to *msr reaches; *kind: the value mapping
 * (pmu_ctx.h nb_pmu_mirror_msr).  False: a register without a mirror. */
Bool nb_ctx_map_msr(ThreadId tid, uint32_t *msr, Int *kind)
{
	uint32_t m;
	int k;

	*kind = 0;
	if (!flipped(tid))
		return True;
	if ((k = nb_pmu_mirror_msr(*msr, &m)) < 0)
		return False;
	*msr = m;
	*kind = k;
	return True;
}

uint64_t nb_ctx_map_val(Int kind, uint64_t v)
{
	return kind == 1 ? nb_pmu_mirror_escr_val(v) : kind == 2 ? nb_pmu_mirror_cccr_val(v) : v;
}

uint32_t nb_ctx_map_ctr(ThreadId tid, uint32_t idx)
{
	if (!flipped(tid) || (idx & 0x1f) >= NB_NUM_COUNTERS)
		return idx;
	return (idx & ~UINT32_C(0x1f)) | nb_pmu_mirror_ctr(idx & 0x1f);
}

uint32_t nb_ctx_map_mask(ThreadId tid, uint32_t mask)
{
	uint32_t m = 0;

	if (!flipped(tid))
		return mask;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		if (mask & (1u << c))
			m |= 1u << nb_pmu_mirror_ctr(c);
	return m;
}

void nb_ctx_stats(void)
{
	HChar buf[NB_CTX_LOG * 8 + 64];
	Int n = 0;

	VG_(umsg)("nbsim: thread contexts (%s): thread switches %llu, with counters saved/restored %llu "
		  "(%llu counters)\n", clo_ctx_cpu ? "off, counting by CPU" : "per thread",
		  nb_ctx_switches, nb_ctx_swaps, nb_ctx_counters);
	if (clo_ht)
		VG_(umsg)("nbsim: registers taken back from the other LP's context: %llu times\n",
			  nb_ctx_reclaims);
	for (unsigned lp = 0; lp < (clo_ht ? 2u : 1u); lp++) {
		n = VG_(snprintf)(buf, sizeof buf, "nbsim: LP%u ran threads", lp);
		for (UInt i = 0; i < nlog; i++)
			if ((lp_log[i] >> 7) == lp)
				n += VG_(snprintf)(buf + n, (Int)sizeof buf - n, " %u", lp_log[i] & 0x7f);
		if (nlog == NB_CTX_LOG)
			n += VG_(snprintf)(buf + n, (Int)sizeof buf - n, " ...");
		VG_(umsg)("%s (valgrind ThreadIds, in creation order)\n", buf);
	}
	if (clo_ht && (nb_ht_state.place == NB_HT_MIGRATE || nb_ctx_moves)) {
		VG_(umsg)("nbsim: threads moved between logical processors: %llu\n", nb_ctx_moves);
		for (UInt i = 0; i < nmoves; i++)
			if (move_log[i].after)
				VG_(umsg)("nbsim:   thread %u moved to LP%u when thread %u exited\n",
					  move_log[i].tid, move_log[i].to, move_log[i].after);
			else
				VG_(umsg)("nbsim:   thread %u moved to LP%u by its binding\n",
					  move_log[i].tid, move_log[i].to);
	}
}

/*
 * nb_main.c - nbsim, a valgrind tool modelling an Intel NetBurst CPU
 * (family 15) and its performance-monitoring unit.  See README.md.
 *
 * Structure (nb_tool.h lists the modules):
 *  - signals: nb_sig[NB_SIG(event, mask bit)] count the events the CPU model
 *    produces on the committed path.  Instrumentation (nb_instr.c) adds
 *    static counts per superblock segment with inline IR (load, add, store)
 *    and calls the helpers of nb_exec.c (branch model, cache model ...);
 *    nb_derive.c folds the raw counts into signals.
 *  - the PMU (pmu.c) folds signal deltas into its counters on every
 *    register access (lazy sync), so counts are exact.
 *  - CPUID: the VEX CPUID dirty helper is replaced by ours (nb_cpu.c).
 *  - client requests (nbsim_client.h) give the guest RDMSR/WRMSR/RDPMC:
 *    this file, with the tool's shared state, the thread hooks, init and fini.
 *
 * Without --ht all guest threads run on logical processor 0; with --ht
 * threads alternate between LP0 and LP1 (nb_ht.c), or with
 * --nbsim-ht-place=migrate are balanced between them and move.  The counters are per
 * guest thread by default, saved and restored at thread switches as the
 * kernel does (nb_ctx.c); --nbsim-pmu-ctx=cpu shares them among the
 * threads of a logical processor, as on hardware without an OS.
 */
#include "pub_tool_vkiscnums.h"
#include "nb_tool.h"
#include "nb_rawsh.h"
#include "nb_samples.h"

/* ---- client requests ---- */

static Bool guest_writable(UWord addr, SizeT len)
{
	return addr != 0 && VG_(am_is_valid_for_client)((Addr)addr, len, VKI_PROT_WRITE);
}

static UWord bad_pointer(const HChar *req, UWord addr)
{
	VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
		      "%s: output pointer %#lx is not writable guest memory", req, addr);
	return NBSIM_GP;
}

static void copy_str(char *dst, SizeT n, const char *src)
{
	SizeT i = 0;
	while (src[i] == ' ')
		src++;
	for (; i + 1 < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
}

/* A thread that moved to the other LP names a register without a mirror
 * (cannot happen: nb_ctx_may_move keeps such threads in place; a
 * register it had not used before the move). */
static UWord no_mirror(const HChar *req, uint32_t msr)
{
	VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
		      "%s: MSR %#x (%s) has no counterpart on logical processor %u, to which "
		      "this thread moved (--nbsim-ht-place=migrate)", req, msr,
		      nb_pmu_msr_name(msr), nb_lp_of(VG_(get_running_tid)()));
	return NBSIM_GP;
}

static Bool nb_client_request(ThreadId tid, UWord *arg, UWord *ret)
{
	uint64_t v;
	uint32_t msr;
	Int kind;

	if (!VG_IS_TOOL_USERREQ('N', 'B', arg[0]))
		return False;
	/* the program's clocks: not a PMU access (a program reading the
	 * time in a loop must not re-anchor the sampled clock each time) */
	if (nb_front->clock_request(tid, arg, ret))
		return True;
	nb_pmu_access();
	if (arg[0] != NBSIM_REQ_KERN || nb_front->request_pmu(arg))
		nb_tm_anchor();
	switch (arg[0]) {
	case NBSIM_REQ_PROBE:
		*ret = NBSIM_MAGIC;
		break;
	case NBSIM_REQ_RDMSR:
		if (!guest_writable(arg[2], sizeof(ULong))) {
			*ret = bad_pointer("RDMSR", arg[2]);
			break;
		}
		msr = (uint32_t)arg[1];
		if (!nb_ctx_map_msr(tid, &msr, &kind)) {
			*ret = no_mirror("RDMSR", msr);
			break;
		}
		if ((*ret = nb_rdmsr_req(msr, &v)) == NBSIM_OK)
			*(ULong *)arg[2] = (ULong)nb_ctx_map_val(kind, v);
		break;
	case NBSIM_REQ_WRMSR:
		msr = (uint32_t)arg[1];
		if (!nb_ctx_map_msr(tid, &msr, &kind)) {
			*ret = no_mirror("WRMSR", msr);
			break;
		}
		nb_pmu_sync(&nb_pmu_state, nb_sig);
		nb_ctx_before_write(tid, msr);
		*ret = nb_wrmsr_req(msr, nb_ctx_map_val(kind, (uint64_t)arg[2]));
		if (*ret == NBSIM_OK && msr == NB_MSR_IA32_DS_AREA)
			nb_ctx_wrote_ds_area(tid, (uint64_t)arg[2]);
		if (*ret == NBSIM_OK && (msr == NB_MSR_IA32_PEBS_ENABLE || msr == NB_MSR_MSR_PEBS_MATRIX_VERT))
			nb_ctx_wrote_tagging(tid);
		break;
	case NBSIM_REQ_RDPMC:
		if (!guest_writable(arg[2], sizeof(ULong))) {
			*ret = bad_pointer("RDPMC", arg[2]);
			break;
		}
		if (nb_pmu_rdpmc(&nb_pmu_state, nb_ctx_map_ctr(tid, (uint32_t)arg[1]), &v, nb_sig) != NB_PMU_OK) {
			*ret = nb_gp_from_pmu();
			break;
		}
		*(ULong *)arg[2] = (ULong)v;
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_INFO: {
		struct nbsim_info *inf = (struct nbsim_info *)arg[1];
		if (!guest_writable(arg[1], sizeof *inf)) {
			*ret = bad_pointer("INFO", arg[1]);
			break;
		}
		inf->version = NBSIM_INFO_VERSION;
		inf->family = 15;
		inf->model = nb_cpu->model;
		inf->stepping = nb_cpu->stepping;
		inf->ht = clo_ht ? 1 : 0;
		/* the LP whose registers it programs (nb_ctx.c re-targets
		 * them after a move) and the one it runs on now */
		inf->logical_cpu = nb_home_lp_of(tid);
		inf->running_lp = nb_lp_of(tid);
		inf->ht_place = clo_ht && clo_ht_migrate ? 1 : 0;
		inf->mhz = nb_cpu->mhz;
		inf->l3_kb = nb_cpu->l3_kb;
		copy_str(inf->model_name, sizeof inf->model_name, nb_cpu->name);
		copy_str(inf->brand, sizeof inf->brand, nb_cpu->brand);
		*ret = NBSIM_OK;
		break;
	}
	case NBSIM_REQ_PMI_SIGNAL:
		if (arg[1] > 64) {
			VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
				      "PMI_SIGNAL: %lu is not a signal number (0-64)", arg[1]);
			*ret = NBSIM_GP;
			break;
		}
		nb_pmi_sig = (Int)arg[1];
		nb_pmu_written(NB_PMU_NO_WRITE);
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_MEMSTATS: {
		struct nbsim_memstats *ms = (struct nbsim_memstats *)arg[1];
		if (!guest_writable(arg[1], sizeof *ms)) {
			*ret = bad_pointer("MEMSTATS", arg[1]);
			break;
		}
		nb_memstats_fill();
		*ms = nb_ms;
		ms->active = (nb_need & NEED_CACHE) != 0;
		*ret = NBSIM_OK;
		break;
	}
	case NBSIM_REQ_CPU_WIDE:
		if (arg[1] >> NB_NUM_COUNTERS) {
			VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
				      "CPU_WIDE: mask %#lx names counters beyond 0-17", arg[1]);
			*ret = NBSIM_GP;
			break;
		}
		nb_pmu_sync(&nb_pmu_state, nb_sig);
		nb_ctx_cpu_wide(tid, nb_ctx_map_mask(tid, (uint32_t)arg[1]), arg[2] != 0);
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_LAST_FAULT:
		if (arg[2] && guest_writable(arg[1], arg[2]))
			copy_str((char *)arg[1], arg[2], nb_fault_buf);
		*ret = NBSIM_OK;
		break;
	case NBSIM_REQ_KERN:             /* the emulated kernel (nb_kern.c) */
		*ret = (UWord)nb_front->request(tid, arg);
		break;
	default:
		VG_(message)(Vg_UserMsg, "nbsim: unknown client request %#lx\n", arg[0]);
		*ret = NBSIM_GP;
		break;
	}
	nb_tags_changed();
	return True;
}

/* ---- Hyper-Threading: thread placement ---- */

/* Threads inside a system call (between the pre and post hooks): a
 * thread that valgrind switches away from in one is blocked in the
 * kernel. */
static unsigned char nb_in_sys[NB_HT_MAXT];

/* ... also the exit status for --nbsim-counts (nb_progfile.c) and an
 * execve's events for the new image (nb_kern.c) */
static void nb_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	if (tid < NB_HT_MAXT)
		nb_in_sys[tid] = 1;
	nb_ls_pre_syscall(tid, sysno, args);
	nb_front->pre_syscall(tid, sysno, args, nargs);
	nb_samples_pre_syscall(sysno);
}

static void nb_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	if (tid < NB_HT_MAXT)
		nb_in_sys[tid] = 0;
	if (sysno == __NR_setuid || sysno == __NR_setreuid || sysno == __NR_setresuid)
		nb_euid_forget();
	NB_LS_TRACE("res %u sys %u %s %lu\n", tid, sysno, sr_isError(res) ? "err" : "ok",
		    sr_isError(res) ? sr_Err(res) : sr_Res(res));
	nb_ls_post_syscall(tid);
	nb_front->post_syscall(tid, sysno, args, nargs, res);
}

/* The LPs that run user code (bit lp), for the timing model: an active
 * LP whose live threads are all blocked in system calls is halted (the
 * kernel's idle loop halts it), and the other LP has the whole package
 * (Marr et al., ITJ 2002: single-task mode).  lp, about to run, runs.
 * Blocked: as the lockstep's model has it (nb_lockstep.c: a futex wait
 * until the wake that ends it), else as the host has it (inside a
 * system call at the switch). */
static unsigned nb_lp_running(unsigned lp)
{
	unsigned run = 1u << lp;

	if (nb_ls_active())
		return (run | nb_ls_lps_running()) & nb_ht_active(&nb_ht_state);
	for (unsigned t = 1; t < NB_HT_MAXT; t++)
		if (nb_ht_state.alive[t] && !nb_in_sys[t])
			run |= 1u << nb_ht_state.lp[t];
	return run & nb_ht_active(&nb_ht_state);
}

/* Fold what ran so far into the running LP's counts, then count for LP
 * lp with the current set of active LPs (its clock gets its share of the
 * package, nb_smt.h).  A thread switch ends the open retirement cycle
 * (the LPs' cycles are not interleaved). */
static unsigned lp_run_mask;            /* nb_lp_running at the last switch */

static void nb_lp_switch(unsigned lp)
{
	lp_run_mask = nb_lp_running(lp);
	nb_pmu_access();
	nb_pmu_set_lp(&nb_pmu_state, lp, nb_ht_active(&nb_ht_state), nb_sig);
	if (clo_ht && VG_(clo_verbosity) > 2)
		VG_(umsg)("ht: LP%u runs; LPs running user code %#x (active %#x)\n", lp,
			  nb_lp_running(lp), nb_ht_active(&nb_ht_state));
	nb_tm_switch(lp, nb_lp_running(lp));
	nb_tags_changed();
}

/* The lockstep's state changed (nb_ls_changed, registered below): a new
 * segment of the package's sharing if the LPs that run user code are
 * others now (a wake of the other LP's thread, the running thread's
 * wait). */
static void nb_ls_lps_changed(void)
{
	if (clo_ht && nb_lp_running(nb_pmu_state.lp) != lp_run_mask)
		nb_lp_switch(nb_pmu_state.lp);
}

/* nb_start_client below, for the thread that runs already (the
 * lockstep's PAUSE, nb_ls_pause): would it do nothing but ask the
 * lockstep?  Each of its steps, in its order. */
static Bool nb_start_again(ThreadId tid)
{
	unsigned lp = nb_lp_of(tid);

	return !nb_cold_pending() && nb_pmi_start_again(tid) && nb_lp_tid[lp] == tid &&
		nb_lp_lwpid[lp] == nb_lwp(tid) && (!clo_ht || lp == nb_pmu_state.lp) &&
		(clo_ctx_cpu || nb_ctx_running() == tid) && nb_front->runs_again &&
		nb_front->runs_again(tid);
}

static void nb_start_client(ThreadId tid, ULong blocks_done)
{
	NB_LS_TRACE("start %u bbs %llu\n", tid, blocks_done - nb_ls_unrun);
	/* (the superblocks run: valgrind's count less the slices a hold
	 * ended with nothing run, whose number follows the host's timing) */
	nb_cold_check(blocks_done - nb_ls_unrun);
	/* not its turn (nb_lockstep.c): it leaves at its first superblock
	 * having run nothing */
	if (!nb_ls_enter(tid)) {
		nb_ls_tmp_set(tid);
		return;
	}
	nb_rawsh_start(tid);             /* (after a park: others ran meanwhile) */
	nb_pmi_enter(tid);               /* a PMI in flight: its thread's */
	/* the thread that stands for its LP (nb_pmi_send) */
	nb_lp_tid[nb_lp_of(tid)] = tid;
	nb_lp_lwpid[nb_lp_of(tid)] = nb_lwp(tid);
	if (clo_ht && nb_lp_of(tid) != nb_pmu_state.lp)
		nb_lp_switch(nb_lp_of(tid));
	/* per-thread counters: load tid's context on its LP (nb_ctx.c) */
	nb_ctx_start(tid);
	nb_front->runs(tid);             /* perf events follow their thread */
	nb_pmi_thread_runs(tid);
	nb_ls_relimit(tid);
	nb_ls_tmp_set(tid);              /* (after any switch of nb_tmp) */
}

/* tid stops running client code: the counts its superblocks held in its
 * shadow state go to nb_raw (nb_rawsh.c), before anything reads them */
static void nb_stop_client(ThreadId tid, ULong blocks_done)
{
	nb_ls_slice_end(tid);
	NB_LS_TRACE("stop %u bbs %llu\n", tid, blocks_done - nb_ls_unrun);
	nb_rawsh_stop(tid);
}

static void nb_thread_create(ThreadId parent, ThreadId child)
{
	if (clo_ht)
		nb_ht_create_by(&nb_ht_state, child, parent);  /* (its creator's mask) */
	if (clo_ht && VG_(clo_verbosity) > 2)
		VG_(umsg)("ht: thread %u created by %u on LP%u; live LP0 %u LP1 %u\n", child, parent,
			  nb_lp_of(child), nb_ht_state.live[0], nb_ht_state.live[1]);
	nb_ctx_created(child);
	nb_ls_created(parent, child);
	nb_front->thread_create(parent, child);   /* perf events with inherit */
	if (!clo_ht)
		return;
	nb_lp_switch(nb_pmu_state.lp);
}

static int may_move(unsigned tid, void *arg)
{
	(void)arg;
	return nb_ctx_may_move((ThreadId)tid);
}

/* a forked child: its threads' LWPs are new (nb_lwp); it has only the
 * forking thread tid (valgrind's scheduler marked the others empty,
 * without telling the tool): the others leave the lockstep and the
 * logical processors they were placed on, which go idle if they had no
 * other (the per-thread PMU contexts and the front-ends' state stay:
 * never used again, and a thread's exit there writes its counts) */
static void lwp_after_fork(ThreadId tid)
{
	nb_lwp_forget(VG_INVALID_THREADID);
	nb_lsh_after_fork();
	for (ThreadId t = 1; t < NB_HT_MAXT; t++) {
		if (t == tid)
			continue;
		nb_ls_vanish(t);
		if (nb_lp_tid[nb_lp_of(t)] == t)
			nb_lp_tid[nb_lp_of(t)] = 0, nb_lp_lwpid[nb_lp_of(t)] = 0;
		if (clo_ht)
			nb_ht_exit(&nb_ht_state, t);
	}
}

static void nb_thread_exit(ThreadId tid)
{
	nb_front->thread_exit(tid);
	nb_lwp_forget(tid);
	if (nb_lp_tid[nb_lp_of(tid)] == tid)
		nb_lp_tid[nb_lp_of(tid)] = 0, nb_lp_lwpid[nb_lp_of(tid)] = 0;
	nb_ctx_exit(tid);
	nb_ls_exit(tid);
	nb_lsh_exit(tid);
	if (!clo_ht)
		return;
	nb_ht_exit(&nb_ht_state, tid);
	if (VG_(clo_verbosity) > 2)
		VG_(umsg)("ht: thread %u exited; live LP0 %u LP1 %u\n", tid, nb_ht_state.live[0],
			  nb_ht_state.live[1]);
	/* --nbsim-ht-place=migrate: idle balancing (nb_ht.h) */
	{
		ThreadId mv = (ThreadId)nb_ht_balance(&nb_ht_state, may_move, NULL);

		if (mv)
			nb_ctx_moved(mv, nb_lp_of(mv) ^ 1, tid);
	}
	nb_lp_switch(nb_pmu_state.lp);
}

/*
 * The guest's CPU affinity (sched_setaffinity, emulated by
 * kernel/nb_affinity.c): thread tid may run on the LPs of its mask
 * (nb_ht.h).  One whose mask excludes the LP it runs on moves to the
 * other when its context lets it (nb_ctx_rebind) and the front-end's
 * KERN_OK says its own objects do (the perf driver's events of the
 * thread are bound to an LP's T0/T1 bits); else it stays, and the
 * front-end asks again after each of its later system calls
 * (nb_thread_misplaced).  Moved: the lockstep re-decides who runs (its
 * owners follow the threads' LPs) and the LPs' active and running sets
 * are taken again, as after an idle balancing move.
 */
UInt nb_thread_lps(ThreadId tid)
{
	return nb_ht_mask(&nb_ht_state, (unsigned)tid);
}

Bool nb_thread_misplaced(ThreadId tid)
{
	return clo_ht && nb_ht_want(&nb_ht_state, (unsigned)tid) != nb_lp_of(tid);
}

Bool nb_thread_settle(ThreadId tid, Bool kern_ok)
{
	unsigned from = nb_lp_of(tid);
	int how;

	if (!nb_thread_misplaced(tid) || !kern_ok || !(how = nb_ctx_rebind(tid, from)))
		return False;
	(void)nb_ht_move(&nb_ht_state, (unsigned)tid, from ^ 1, how == 1);
	if (nb_lp_tid[from] == tid)
		nb_lp_tid[from] = 0, nb_lp_lwpid[from] = 0;
	if (VG_(clo_verbosity) > 2)
		VG_(umsg)("ht: thread %u moved to LP%u by its binding (%s); live LP0 %u LP1 %u\n",
			  tid, from ^ 1, how == 1 ? "rehomed" : "mirrored", nb_ht_state.live[0],
			  nb_ht_state.live[1]);
	nb_ls_changed();
	nb_lp_switch(nb_pmu_state.lp);
	return True;
}

UInt nb_thread_bind(ThreadId tid, UInt mask, Bool kern_ok)
{
	mask = nb_ht_set_mask(&nb_ht_state, (unsigned)tid, mask);
	if (mask)
		(void)nb_thread_settle(tid, kern_ok);
	return mask;
}

static void nb_post_clo_init(void)
{
	uint8_t rate[NB_NUM_EVENTS_MAX];

	nb_cpu = nb_cpu_find(clo_model);
	tl_assert(nb_cpu);
	/* a sample size with another clock: the user asked for sampling and
	 * would silently get the clock named (or the default model) */
	if (clo_sample_given && clo_clock != NB_CLOCK_SAMPLED) {
		VG_(fmsg)("nbsim: %s is for --nbsim-clock=sampled; the clock chosen "
			  "(%s) samples nothing\n", clo_sample_given,
			  clo_clock == NB_CLOCK_FAST ? "fast" : clo_clock == NB_CLOCK_WALK ? "walk" : "model");
		VG_(exit)(1);
	}
	nb_ht_init(&nb_ht_state, clo_ht);
	nb_ht_set_place(&nb_ht_state, clo_ht_migrate ? NB_HT_MIGRATE : NB_HT_FIXED);
	/* Every branch must end a superblock (branch and retirement
	 * accounting rely on it); overrides --vex-guest-chase. */
	VG_(clo_vex_control).guest_chase = False;
	/* Nothing the guest executes may be lost to VEX's optimiser (README
	 * "What VEX's optimiser must not remove"): with every register update
	 * kept at each instruction, a load whose result register is
	 * overwritten later in the superblock (and the flags a folded jcc
	 * reads) survive until instrumentation.  VEX takes its copy of the
	 * default before the first translation: code outside files (JIT
	 * code) is always translated so.  Code in files follows the needs
	 * (nb_px_policy): with no counter it is not counted, and the
	 * policy VEX would use is 1.25x faster (bench branchy, nbsim0). */
	nb_px_idle = VG_(clo_px_file_backed) != VexRegUpd_INVALID
		? VG_(clo_px_file_backed) : VG_(clo_vex_control).iropt_register_updates_default;
	if (clo_exact_ir)
		VG_(clo_vex_control).iropt_register_updates_default = VexRegUpdAllregsAtEachInsn;

	for (unsigned ev = 0; ev < NB_NUM_EVENTS_MAX; ev++)
		rate[ev] = (nb_events[ev].flags & NB_EV_RETIREMENT)
			? (uint8_t)nb_cpu->retire_width : 1;
	nb_pmu_init(&nb_pmu_state, nb_cpu->model, clo_ht, rate, nb_sig);
	nb_pmu_set_features(&nb_pmu_state, nb_cpu->l3_kb ? NB_FEAT_L3 : 0);
	nb_bpred_init(&nb_bp, nb_cpu->btb_entries, nb_cpu->rsb_entries);
	/* geometry from the model's CPUID leaf-2 descriptors (nb_cpu.c): L1D
	 * 64-byte lines, 4-way (8 KB, 0x66) or 8-way (16 KB, 0x60); L2 and L3
	 * 8-way, 64-byte lines, 2 lines per sector: 128-byte tags, 64-byte fills */
	tl_assert(nb_l1_init(&nb_l1d, nb_cpu->l1d_kb, nb_cpu->l1d_kb == 8 ? 4 : 8));
	tl_assert(nb_cache_init(&nb_l2, nb_cpu->l2_kb, 8, clo_cg_compat ? 64 : 1u << NB_L2_LINE_SHIFT, 64));
	nb_has_l3 = nb_cpu->l3_kb != 0 && !clo_cg_compat;
	nb_memp = nb_mem_params_find(nb_cpu->model, nb_cpu->l3_kb != 0);
	nb_tm_setup();
	nb_bound_mem = nb_memp ? (ULong)nb_memp->l2_latency + nb_memp->l3_latency +
		nb_memp->mem_latency : 1000;
	tl_assert(nb_memp);
	/* bus model: the part's bus clock ratio (nb_bus.c) */
	tl_assert(nb_bus_init(&nb_bus_state, nb_cpu->model, nb_cpu->l3_kb != 0));
	nb_bus_last = nb_bus_state;
	/* DTLB: CPUID leaf-2 descriptor 0x5b, 64 entries, 4 KB pages (nb_tlb.c) */
	tl_assert(nb_tlb_init(&nb_dtlb, nb_memp->dtlb_entries, 12));
	/* WC buffers: 6, 8 on models 3, 4, 6 (nb_wcb.c) */
	tl_assert(nb_wcb_init(&nb_wcbs, nb_wcb_buffers(nb_cpu->model)));
	/* store buffer: per-model entries and aliasing bits (nb_tlb.c) */
	tl_assert(nb_stb_init(&nb_stb, nb_memp->stb_entries, nb_memp->alias_bits));
	/* ITLB: descriptor 0x50, 64 entries; trace cache 12K uops 8-way (0x70):
	 * 2048 six-uop lines, 256 sets (nb_tc_sb) */
	tl_assert(nb_tlb_init(&nb_itlb, nb_memp->itlb_entries, 12));
	tl_assert(nb_cache_init(&nb_tc, 128, 8, 64, 64));
	if (nb_has_l3)
		tl_assert(nb_cache_init(&nb_l3, nb_cpu->l3_kb, 8, 1u << NB_L2_LINE_SHIFT, 64));
	{
		uint32_t o[4];
		/* DS format: 64-bit when CPUID.1:ECX.DTES64 (bit 2) [SDM DS save area] */
		nb_cpuid(nb_cpu, clo_ht, 0, 1, 0, o);
		nb_pebs_fmt64 = (o[2] & 4) != 0;
	}
	nb_need = clo_stats ? NEED_ALL : 0;
	nb_px_policy();
	nb_wpath_init(&nb_wp, nb_cpu->mispredict_penalty);
	if (clo_list) {
		nb_list_events();
		VG_(exit)(0);
	}
	nb_front->init();
	nb_samples_init();               /* (the periods: after the program file) */
	if (VG_(clo_verbosity) > 1)
		VG_(umsg)("nbsim: modelling %s (family 15 model %u stepping %u), HT %s\n",
			  nb_cpu->desc, nb_cpu->model, nb_cpu->stepping, clo_ht ? "on" : "off");
}

static void nb_fini(Int exitcode)
{
	nb_front->fini(exitcode);
	nb_samples_fini();
	if (!clo_stats)
		return;
	nb_pmu_access();
#define S(x) ((ULong)nb_sig[x])
	VG_(umsg)("nbsim: %s: instructions %llu, uops %llu, branches %llu "
		  "(NP %llu NM %llu TP %llu TM %llu), mispredicted %llu, cycles %llu\n",
		  nb_cpu->name, S(SIG_INSTR) + S(SIG_INSTR_TAG), S(SIG_UOPS),
		  S(SIG_BR(0)) + S(SIG_BR(1)) + S(SIG_BR(2)) + S(SIG_BR(3)),
		  S(SIG_BR(0)), S(SIG_BR(1)), S(SIG_BR(2)), S(SIG_BR(3)),
		  S(SIG_MISP), S(NB_SIG_CYCLES));
#undef S
	nb_memstats_fill();
	VG_(umsg)("nbsim: cache model: L1D load misses %llu, store misses %llu; "
		  "L2 load misses %llu, store misses %llu; DTLB load misses %llu, "
		  "store misses %llu; split loads %llu, stores %llu; stall cycles %llu\n",
		  (ULong)nb_ms.l1_load_miss, (ULong)nb_ms.l1_store_miss, (ULong)nb_ms.l2_load_miss,
		  (ULong)nb_ms.l2_store_miss, (ULong)nb_ms.dtlb_load_miss, (ULong)nb_ms.dtlb_store_miss,
		  (ULong)nb_ms.split_loads, (ULong)nb_ms.split_stores, nb_stall);
	VG_(umsg)("nbsim: store buffer: loads forwarded %llu, blocked PARTIAL_DATA %llu, "
		  "UNALGN_ADDR %llu, cancelled 64K_CONF %llu\n", nb_stb_fwd,
		  (ULong)nb_sig[SIG_MOB_PD], (ULong)nb_sig[SIG_MOB_UA], (ULong)nb_sig[SIG_64K]);
	VG_(umsg)("nbsim: WC buffers (%u): non-temporal stores %llu, evictions %llu "
		  "(no free buffer %llu, full lines %llu), flushing instructions with a "
		  "buffer in use %llu\n", nb_wcbs.n, nb_wcb_nt, (ULong)nb_sig[SIG_WCB_EVICTS],
		  (ULong)nb_sig[SIG_WCB_FULL], nb_wcb_bursts, nb_wcb_fences);
	{
		const struct nb_bus *b = &nb_bus_state;
		VG_(umsg)("nbsim: bus model: IOQ reads %llu (prefetches %llu), writebacks %llu; "
			  "BSQ writebacks into the L3 %llu; in step mode %llu misses counted at once "
			  "(queue full)\n",
			  (ULong)(b->ioq_alloc[NB_BUS_RD] + b->ioq_alloc[NB_BUS_RD_PF] +
				  b->ioq_alloc[NB_BUS_RFO] + b->ioq_alloc[NB_BUS_RFO_PF]),
			  (ULong)(b->ioq_alloc[NB_BUS_RD_PF] + b->ioq_alloc[NB_BUS_RFO_PF]),
			  (ULong)b->ioq_alloc[NB_BUS_WB], (ULong)b->bsq_alloc[NB_BUS_WB_L3],
			  (ULong)b->dropped);
	}
	VG_(umsg)("nbsim: timing model: uops %llu; superblock runs replayed %llu of %llu tried, "
		  "%llu of them in a steady state (README \"Timing model\")\n",
		  (ULong)(nb_tm_lp[0].uops + nb_tm_lp[1].uops),
		  (ULong)(nb_tm_lp[0].memo.hits + nb_tm_lp[1].memo.hits),
		  (ULong)(nb_tm_lp[0].memo.runs + nb_tm_lp[1].memo.runs),
		  (ULong)(nb_tm_lp[0].memo.ffs + nb_tm_lp[1].memo.ffs));
	if (clo_clock == NB_CLOCK_SAMPLED)
		VG_(umsg)("nbsim: sampled clock: superblock runs skipped %llu, walked %llu (measured %llu); "
			  "skip phases cut by a run without a cost for its kind %llu; costs forgotten "
			  "without an anchor %llu times\n",
			  (ULong)(nb_tm_lp[0].smp.skipped + nb_tm_lp[1].smp.skipped),
			  (ULong)(nb_tm_lp[0].smp.walked + nb_tm_lp[1].smp.walked),
			  (ULong)(nb_tm_lp[0].smp.measured + nb_tm_lp[1].smp.measured),
			  (ULong)(nb_tm_lp[0].smp.cold + nb_tm_lp[1].smp.cold),
			  (ULong)(nb_tm_lp[0].smp.forgot + nb_tm_lp[1].smp.forgot));
	VG_(umsg)("nbsim: translation flushes (PMU reprogrammed): %llu; cold translations made hot: %llu\n",
		  nb_discards, nb_tier_promoted);
	VG_(umsg)("nbsim: guest-state writes dropped from translations (nb_putdrop.c): %llu\n", nb_putdrop_n);
	VG_(umsg)("nbsim: overflow interrupts (PMI) sent: %llu (PMU syncs for them: %llu), handlers run at CPL 0: %llu\n",
		  nb_pmi_sent, nb_pmi_syncs, nb_pmi_isr_runs);
	VG_(umsg)("nbsim: instruction boundaries passed in PMI skids: %llu\n", nb_pmi_skid_insns);
	VG_(umsg)("nbsim: translations while a PMI was possible: thin %llu, checked %llu; "
		  "guards that checked %llu, still near after it %llu; checks inside %llu\n",
		  nb_pmi_thin_made, nb_pmi_near_made, nb_pmi_sb_calls, nb_pmi_sb_near, nb_pmi_bchecks);
	if (clo_pmi_verify)
		VG_(umsg)("nbsim: PMI bounds verified (--nbsim-pmi-verify): checks %llu, short %llu, "
			  "by at most %llu\n", nb_pmi_vf_checks, nb_pmi_vf_short, nb_pmi_vf_max);
	nb_front->stats();
	if (clo_ht)
		VG_(umsg)("nbsim: PMIs sent to the other LP's thread: %llu; for an LP no thread ran on: %llu\n",
			  nb_pmi_sent_other, nb_pmi_lost);
	nb_ctx_stats();
	nb_ls_stats();
	VG_(umsg)("nbsim: PEBS records %llu (%s format), not stored (buffer full/unmapped) %llu\n",
		  nb_pebs_records, nb_pebs_fmt64 ? "64-bit" : "32-bit", nb_pebs_full);
}

/* The tool's entry point (valgrind's pre_clo_init), with the front-ends'
 * hooks: kernel/nb_front.c calls it. */
void nb_tool_start(const struct nb_front *f)
{
	nb_front = f;
	nb_ls_on_change(nb_ls_lps_changed);
	nb_ls_on_cross(nb_tm_cross);
	nb_ls_on_start_again(nb_start_again);
	nb_pebs_assist = nb_pebs_uop;
	VG_(details_name)("nbsim");
	VG_(details_version)(NB_VERSION);
	VG_(details_description)("an Intel NetBurst (Pentium 4) CPU and PMU model");
	VG_(details_copyright_author)("Copyright (C) the p4netburst authors.");
	VG_(details_bug_reports_to)("the p4netburst project");
	VG_(details_avg_translation_sizeB)(275);

	VG_(basic_tool_funcs)(nb_post_clo_init, nb_instrument, nb_fini);
	VG_(needs_command_line_options)(nb_process_cmd_line_option,
					nb_print_usage, nb_print_debug_usage);
	VG_(needs_client_requests)(nb_client_request);
	/* the exit status for --nbsim-counts (nb_progfile.c); threads blocked in
	 * the kernel (the timing model's halted LPs) */
	VG_(needs_syscall_wrapper)(nb_pre_syscall, nb_post_syscall);
	VG_(track_start_client_code)(nb_start_client);
	VG_(track_stop_client_code)(nb_stop_client);
	VG_(track_pre_deliver_signal)(nb_pmi_pre_deliver);
	VG_(track_post_deliver_signal)(nb_pmi_post_deliver);
	VG_(track_pre_thread_ll_create)(nb_thread_create);
	VG_(track_pre_thread_ll_exit)(nb_thread_exit);
	VG_(atfork)(NULL, NULL, lwp_after_fork);
	VG_(clo_vex_control).guest_chase = False;
}


/*
 * nb_kern_int.h - what the emulated kernel's files share (private to
 * sim/kernel/nb_kern*.c): the kernel objects (msr devices, perf
 * events), the descriptor table, errno values, the helpers both use.
 */
#ifndef NB_KERN_INT_H
#define NB_KERN_INT_H

#include "nb_kern.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vkiscnums.h"
#include "nb_linux_sched.h"
#include <linux/perf_event.h>


/* valgrind core (libcoregrind exports it; the tool API does not) */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5,
			      UWord a6, UWord a7, UWord a8);
extern Int VG_(fcntl)(Int fd, Int cmd, Addr arg);
extern Bool VG_(clo_trace_children);


/* errno values (asm-generic/errno-base.h, errno.h) */
enum { E_PERM = 1, E_NOENT = 2, E_SRCH = 3, E_IO = 5, E_BADF = 9, E_FAULT = 14, E_ACCES = 13,
       E_INVAL = 22, E_NOTTY = 25, E_NOSPC = 28, E_SPIPE = 29, E_ROFS = 30, E_NODEV = 19,
       E_MFILE = 24, E_2BIG = 7, E_OPNOTSUPP = 95 };

#define NOBJ 128
#define PAGE 4096UL
enum { K_FREE, K_MSR, K_PERF };

struct kobj {
	int kind;
	int fd;                  /* the descriptor bound to it; -1 none yet */
	unsigned cpu;            /* msr: its logical processor              */
	ULong pos;               /* msr: file position: 0 (lseek not emulated) */
	/* perf */
	ULong seq;               /* open order                              */
	ThreadId owner;
	Int lwpid;               /* owner's kernel thread id                */
	int leader;              /* index of the group leader (self: leader) */
	Int pcpu;                /* perf_event_open's cpu (-1: any)         */
	uint64_t config;         /* the masked raw config                   */
	struct perf_event_attr attr;
	int counter;             /* -1: not placed (never runs)             */
	uint32_t escr;           /* its ESCR MSR                            */
	unsigned thread;         /* the thread half (owner's LP with HT)    */
	Bool enabled, active;
	UInt toggles;            /* on another process: the opener's ENABLE and
				  * DISABLE so far; its copy there: those it
				  * has followed (nb_kern_attach.c)          */
	ULong count, prev;       /* virtual count; counter value at last sync */
	ULong t_enabled, t_running, t_stamp;
	Long left;               /* sampling: events until the next overflow */
	ULong period;            /* sampling: the period (hw.sample_period; with
				  * attr.freq the kernel's adjusted one)        */
	ULong freq_stamp;        /* freq: simulated ns at the last overflow  */
	ULong freq_count;        /* freq: the count at the last tick         */
	ULong freq_tick;         /* freq: simulated ns at the last tick       */
	Long limit;              /* IOC_REFRESH: overflows left; 0 none     */
	ULong wakeups;           /* samples since the last signal           */
	Bool async;              /* O_ASYNC                                 */
	ULong flags;             /* F_SETFL flags                           */
	Int sig;                 /* F_SETSIG; 0: SIGIO                      */
	Int own_type, own;       /* F_SETOWN_EX; own 0: none                */
	Addr rb;                 /* ring buffer (header page + data)        */
	Int rbfd;                /* a remote copy: the opener's buffer file's fd + 1 */
	ULong wake_head;         /*   and its data_head at the last wakeup     */
	SizeT rb_len;
	ULong lost;              /* records lost (read_format LOST)         */
	ULong rb_lost;           /* lost since the last PERF_RECORD_LOST    */
	ULong id;
	/* inherit (kernel/events/core.c inherit_event, sync_child_event) */
	int parent;              /* a thread's copy: its original's index; -1 */
	Int rpid;                /* a forked child's copy: the original's process */
	ULong rid;               /*   and the original's id there; rpid 0: none */
	ULong child_count, child_ten, child_trun;  /* exited copies, summed */
	Bool foreign;            /* in a forked child: the parent's event (its fd) */
	Int tpid;                /* on another process (nb_kern_attach.c): it
				  * counts there; count, times from its reports */
	/* throttling (kernel/events/core.c __perf_event_account_interrupt):
	 * interrupts since the last tick; off the PMU until the next one */
	ULong interrupts;
	Bool throttled;
};

extern struct kobj ko[NOBJ];
extern int fd_obj[NBSIM_KERN_MAXFD];   /* object index + 1, 0 none */
extern ULong next_seq, next_id;
extern int nperf;                      /* open perf events          */
extern ThreadId on_pmu;                /* thread whose events are on */

#define CTR_MASK ((ULong)NB_COUNTER_MASK)
#define MAX_PERIOD ((1ULL << 39) - 1)  /* x86_pmu.max_period on P4 */


/* nb_kern_task.c: for nb_kern.c's perf_event_open and read(2) */
void nbk_inherit_open(void);    /* an inheriting event is opened       */
void nbk_inherit_drain(void);   /* forked children's reports, folded   */
/* an event's count with its live and exited copies (and their times) */
ULong nbk_total(const struct kobj *e, ULong *ten, ULong *trun);

/* nb_kern.c: helpers the task-boundary code (nb_kern_task.c) uses */
Bool nbk_ko_any(void);
int nbk_new_obj(int kind);
ULong nbk_now_ns(void);
void nbk_place_thread(ThreadId owner);
void nbk_sched_in_thread(ThreadId tid, ULong now);
void nbk_sched_out(struct kobj *e, ULong now);
void nbk_sched_out_all(ULong now);
void nbk_sync(struct kobj *e);
void nbk_upd_times(struct kobj *e, ULong now);
extern Bool nbk_sampling_on;    /* some event samples (nbk_set_sampling)   */

/* nb_kern_base.c: objects, guest memory, capabilities */
Bool nbk_readable(Addr a, SizeT n);
Bool nbk_writable(Addr a, SizeT n);
Bool nbk_perfmon_capable(void);
Bool nbk_rawio_capable(void);
unsigned nbk_ncpus(void);
/* the CPU topology's part of the sysfs tree (nb_kern_topo.c) */
Bool nbk_topo_build(const HChar *top);
void nbk_topo_unbuild(const HChar *top);
/* its /proc/cpuinfo (nb_kern_cpuinfo.c) */
Bool nbk_cpuinfo_build(const HChar *top);
void nbk_cpuinfo_unbuild(const HChar *top);
struct kobj *nbk_obj_of_fd(UWord fd);
/* nb_kern_sched.c: the PMU side */
void nbk_wr(uint32_t msr, uint64_t v);
uint64_t nbk_rd(uint32_t msr);
Bool nbk_sampling(const struct kobj *e);       /* e has a sample_period */
Bool nbk_counts(const struct kobj *e);
uint32_t nbk_cccr_of(const struct kobj *e);
void nbk_sched_in(struct kobj *e, ULong now);
void nbk_resched(ULong now);
void nbk_set_sampling(Bool on);
/* nb_kern_perf.c: the system calls on an event */
Word nbk_perf_open(ThreadId tid, Addr uattr, UWord pidcpu, UWord group_fd, UWord flags);
Word nbk_perf_read(struct kobj *e, Addr buf, UWord n);
Word nbk_perf_ioctl(struct kobj *e, UWord req, UWord arg);
Word nbk_perf_fcntl(struct kobj *e, UWord cmd, UWord arg);
/* nb_kern_base.c: process PID's start time (0: this process); a "Key:"
 * field's value in a /proc status text (NULL if absent; the text read by
 * nb_read_file, nb_tool.h) */
ULong nbk_proc_start(Int pid);
const HChar *nbk_proc_field(const HChar *buf, const HChar *key);
/* nb_kern_exec.c: the events of the image before an exec, loaded before
 * the guest runs */
void nbk_exec_load(void);
/* nb_kern_task.c: a fork's child: its copies of the parent's events */
void nbk_task_after_fork(ThreadId tid);
/* nb_kern_task.c: this process's .inherit file (read so far, made) */
extern Off64T nbk_inh_off;
extern Bool nbk_inh_mine;
/* nb_kern_generic.c: a PERF_TYPE_HARDWARE / HW_CACHE event's config */
Word nbk_generic_config(const struct perf_event_attr *a, uint64_t *cfg);
/* nb_kern_attach.c: events on another task */
Word nbk_target(Int pid, Bool priv, ThreadId *owner, Int *tpid);
void nbk_attach_publish(Int tpid);
Bool nbk_attach_poll(ThreadId tid, ULong now);
void nbk_attach_take(ThreadId tid);
void nbk_attach_fini(void);
void nbk_attach_init(void);
/* nb_kern_task.c: the live counts of this process's copies of another
 * process's events, to their originals (before it stops for a tracer) */
void nbk_report_live(void);
/* nb_kern_ptrace.c: PTRACE_TRACEME across the exec; the refusals */
Word nbk_ptrace(UWord req, UWord pid);
void nbk_ptrace_pre_syscall(UInt sysno, UWord *args, UInt nargs);
void nbk_ptrace_exec_failed(void);
void nbk_ptrace_after_fork(void);
void nbk_ptrace_init(void);
void nbk_stack_premap(void);
extern Bool nbk_ptrace_stopped;
/* nb_kern_perfmmap.c: the ring buffer's records */
void nbk_rb_path(Int opener, ULong id, const HChar *suffix, HChar *buf, SizeT len);
void nbk_rb_write(struct kobj *e, const ULong *w, unsigned nw);
void nbk_rb_sample(struct kobj *e, Addr ip, ULong now);
void nbk_rb_throttle(struct kobj *e, ULong now, Bool enable);
void nbk_rb_mmap(Addr a);
void nbk_rb_exec(void);
void nbk_rb_exit(void);
void nbk_rb_fork(void);
/* nb_kern_sysfs.c: the PMU's sysfs tree (KOP_SYSFS) */
Word nbk_sysfs_dir(Addr buf, UWord len);
Word nbk_maps(Addr buf, UWord len);         /* nb_kern_maps.c */
/* nb_kern_pmi.c: the tick (throttling); frequency mode's clock */
ULong nbk_sim_ns(void);
Bool nbk_tick(ThreadId tid, ULong now);


#endif

/*
 * nb_entropy.c - the kernel's randomness on the simulated machine
 * (--nbsim-random=seeded, the default).  A program that asks the kernel
 * for random bytes makes different choices in every run: CPython seeds
 * its string hashes from getrandom(2), so a dict's layout, and the
 * instructions that walk it, changed by about 1% from one run of the same
 * script to the next; glibc's temporary names and programs that read
 * /dev/urandom do the same.  As the clocks are the simulated part's
 * (nb_simtime.c), the bytes are the simulated machine's: a generator
 * seeded by --nbsim-seed gives what getrandom returns and what a read of
 * /dev/urandom or /dev/random gives, after the host's call (its length and
 * errors stay the host's).  Each process has its own stream: a fork's
 * child mixes in the parent's fork count, an exec'd image its program's
 * name, so two processes of one run do not draw the same bytes.
 * --nbsim-random=host leaves the host's bytes.  The 16 bytes the kernel
 * puts at auxv AT_RANDOM (valgrind copies the host's) come from the
 * process's stream too, before its first instruction (nb_entropy_at_random,
 * from nb_front.c's first thread run).
 * glibc takes the stack protector's canary and the pointer guard from
 * them, and they lie right after the environment's last string,
 * LD_PRELOAD, which ld.so's strcspn reads in aligned groups of four past
 * its terminator, each byte indexing its table on the stack: the host's
 * bytes chose a load's address, and about one run in eight beside two
 * busy loops the clock moved by 3 cycles in ld.so and a skid by one bus
 * clock (t_nb_record's "same seed" pair differed).  Not covered: RDRAND,
 * which no NetBurst has.
 */
#include "tool/nb_tool.h"
#include "nb_entropy.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_vkiscnums.h"

#define NB_RAND_MAXFD 4096      /* descriptors tracked (above: not rewritten) */

static ULong state;             /* the stream's splitmix64 state */
static ULong forks;             /* forks made by this process */
static Bool devrand[NB_RAND_MAXFD];

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): one 64-bit output per call */
static ULong next64(void)
{
	ULong z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void mix(ULong v)
{
	state ^= v;
	(void)next64();
}

void nb_entropy_init(void)
{
	const HChar *p = VG_(args_the_exename);

	state = clo_random_seed;
	for (; p && *p; p++)
		mix((UChar)*p);
}

/* auxv AT_RANDOM's 16 bytes (see the head): from a copy of the stream's
 * state, so that getrandom's bytes stay those of before */
#define NB_AT_RANDOM 25         /* <elf.h>: the Linux ELF auxiliary vector */
extern UWord *VG_(client_auxv);  /* (valgrind's core: m_clientstate.c) */
static void fill(UWord addr, SizeT len);

void nb_entropy_at_random(void)
{
	ULong saved = state;

	if (clo_random_host)
		return;
	state ^= 0x41545f52414e444fULL;        /* "AT_RANDO" */
	for (UWord *a = VG_(client_auxv); a && a[0] != 0; a += 2)
		if (a[0] == NB_AT_RANDOM && a[1])
			fill(a[1], 16);
	state = saved;
}

void nb_entropy_pre_fork(void)
{
	forks++;
}

void nb_entropy_child(void)
{
	mix(0xa5a5a5a5a5a5a5a5ULL + forks);
	forks = 0;
	VG_(memset)(devrand, 0, sizeof devrand);        /* (the parent's stay open) */
}

static void fill(UWord addr, SizeT len)
{
	UChar *b = (UChar *)addr;

	if (!VG_(am_is_valid_for_client)((Addr)addr, len, VKI_PROT_WRITE))
		return;
	while (len) {
		ULong r = next64();

		for (unsigned i = 0; i < 8 && len; i++, len--, r >>= 8)
			*b++ = (UChar)r;
	}
}

static Bool random_path(UWord addr)
{
	const HChar *p = (const HChar *)addr;

	if (!addr || !VG_(am_is_valid_for_client)((Addr)addr, 13, VKI_PROT_READ))
		return False;
	return VG_(strcmp)(p, "/dev/urandom") == 0 || VG_(strcmp)(p, "/dev/random") == 0;
}

static void mark(Long fd, Bool on)
{
	if (fd >= 0 && fd < NB_RAND_MAXFD)
		devrand[fd] = on;
}

static Bool marked(UWord fd)
{
	return fd < NB_RAND_MAXFD && devrand[fd];
}

void nb_entropy_post_syscall(UInt sysno, UWord *args, SysRes res)
{
	if (clo_random_host || sr_isError(res))
		return;
	switch (sysno) {
	case __NR_getrandom:
		fill(args[0], sr_Res(res));
		break;
	case __NR_open:
		mark((Long)sr_Res(res), random_path(args[0]));
		break;
	case __NR_openat:
		mark((Long)sr_Res(res), random_path(args[1]));
		break;
	case __NR_dup: case __NR_dup2: case __NR_dup3:
		mark((Long)sr_Res(res), marked(args[0]));
		break;
	case __NR_fcntl:
		if (args[1] == VKI_F_DUPFD || args[1] == VKI_F_DUPFD_CLOEXEC)
			mark((Long)sr_Res(res), marked(args[0]));
		break;
	case __NR_close:
		mark((Long)args[0], False);
		break;
	case __NR_read: case __NR_pread64:
		if (marked(args[0]))
			fill(args[1], sr_Res(res));
		break;
	default:
		break;
	}
}

/*
 * nb_handover.c - a record a process hands to its next image across an
 * execve.  Valgrind starts the tool afresh in the new image, with nothing
 * of the old one's state: what must survive the exec (the simulated
 * clocks, nb_simwait.c; the threads' CPU binding, nb_affinity.c) goes
 * into a file named by the process, written just before the exec and
 * taken (read and removed) at the new image's start.  A failed exec
 * removes it again (the callers' post-syscall hooks).
 */
#include "nb_handover.h"

Bool nb_handover_put(const HChar *path, const void *rec, Int len)
{
	SysRes f = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0600);
	Bool ok;
	Int fd;

	if (sr_isError(f))
		return False;
	fd = (Int)sr_Res(f);
	ok = VG_(write)(fd, rec, len) == len;
	VG_(close)(fd);
	if (!ok)
		VG_(unlink)(path);
	return ok;
}

Bool nb_handover_take(const HChar *path, void *rec, Int len)
{
	SysRes f = VG_(open)(path, VKI_O_RDONLY, 0);
	Int fd, n;

	if (sr_isError(f))
		return False;
	fd = (Int)sr_Res(f);
	n = VG_(read)(fd, rec, len);
	VG_(close)(fd);
	VG_(unlink)(path);
	return n == len;
}

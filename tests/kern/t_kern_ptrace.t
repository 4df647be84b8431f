#!/bin/sh
# ptrace stops as Linux gives them, natively and under nbsim
# (tests/kern/kern_ptrace.c): PTRACE_TRACEME then exec stops the child
# once with SIGTRAP (valgrind's two execs and its stack growth faults are
# not seen), raise(SIGSTOP) after PTRACE_TRACEME stops it, a second
# PTRACE_TRACEME is EPERM; under nbsim PTRACE_GETREGS of a tracee under
# nbsim is EIO (nb_kern_ptrace.c).  Both runs: under a second of CPU.
echo 1..2
out=$("$NB_BUILD/tests/kern_ptrace" 2>&1); st=$?
if [ $st -eq 0 ]; then echo "ok 1 - natively"; else echo "not ok 1 - natively"; printf '%s\n' "$out" | sed 's/^/#   /'; fi
out=$("$NBSIM" -q --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/kern_ptrace" 2>&1); st=$?
if [ $st -eq 0 ]; then echo "ok 2 - under nbsim"; else echo "not ok 2 - under nbsim"; printf '%s\n' "$out" | sed 's/^/#   /'; fi

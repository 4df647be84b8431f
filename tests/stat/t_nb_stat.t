#!/usr/bin/perl
# nb_stat (utils/nb_stat.c) counting whole programs on nbsim: exact counts of
# static assembly kernels without libc (tests/stat/k_*.S, each kernel's
# comment gives its counts), the IR-optimiser kernels (dead loads, jcc to
# the next instruction), partitioned runs against single-event runs,
# threads (per-thread rows), fork+exec with --follow, Fortran, MPI ranks,
# -x and --json through real CSV and JSON parsers, -o with %r/%p, the exit
# status, and bad input.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use Text::ParseWords qw(parse_line);
use File::Temp qw(tempdir);

my $bin = $ENV{NB_UTILS_BIN} or BAIL_OUT("NB_UTILS_BIN not set (run through make check)");
my $st = "$ENV{NB_BUILD}/tests/stat";
my $nb_stat = "$bin/nb_stat";
my $dir = tempdir(CLEANUP => 1);
-x $nb_stat or BAIL_OUT("$nb_stat not built");

# run nb_stat; returns (exit status, stdout+stderr of nb_stat, -o file contents)
sub run {
	my (@args) = @_;
	my $out = "$dir/out";
	unlink $out;
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		exec $nb_stat, @args or exit 250;
	}
	local $/;
	my $text = <$fh> // '';
	close $fh;
	return ($? >> 8, $text);
}

# -x , output -> { event => count } (totals), parsed as CSV
sub csv_counts {
	my ($file) = @_;
	open(my $fh, '<', $file) or return {};
	my (%c, @rows);
	while (my $l = <$fh>) {
		chomp $l;
		my @f = parse_line(',', 0, $l);
		push @rows, \@f;
		$c{$f[1]} = $f[0] if @f == 5 && $f[3] eq '';
	}
	return wantarray ? (\%c, \@rows) : \%c;
}

sub counts {
	my ($prog, $events, @pre) = @_;
	unlink "$dir/c.csv";            # no stale counts from an earlier run
	my ($rc, $text) = run(@pre, '-x', ',', '-o', "$dir/c.csv", '-e', $events, '--', @$prog);
	diag($text) if $rc != 0 && $rc != 7;
	return (scalar csv_counts("$dir/c.csv"), $rc);
}

sub check {
	my ($name, $prog, $expect, @pre) = @_;
	my ($c, $rc) = counts($prog, join(',', sort keys %$expect), @pre);
	for my $e (sort keys %$expect) {
		is($c->{$e}, $expect->{$e}, "$name: $e");
	}
	return ($c, $rc);
}

# ---- exact counts of the kernels (counts in each kernel's comment) ----
check('k_loop', ["$st/k_loop"], { PAPI_TOT_INS => 2004, PAPI_BR_INS => 1000,
	PAPI_BR_TKN => 999, PAPI_BR_NTK => 1, PAPI_LD_INS => 0, PAPI_SR_INS => 0 });
check('k_mem', ["$st/k_mem"], { PAPI_TOT_INS => 5005, PAPI_LD_INS => 2000, PAPI_SR_INS => 1000,
	PAPI_BR_INS => 1000 });
check('k_branch', ["$st/k_branch"], { PAPI_BR_INS => 6000,
	'retired_branch_type:CONDITIONAL' => 1000, 'retired_branch_type:CALL' => 1000,
	'retired_branch_type:RETURN' => 2000, 'retired_branch_type:INDIRECT' => 4000,
	PAPI_LD_INS => 2000, PAPI_SR_INS => 2000 });
check('k_fp', ["$st/k_fp"], { PAPI_TOT_INS => 5006, 'scalar_DP_uop:ALL' => 2000,
	'packed_SP_uop:ALL' => 1000 });

check('k_simd', ["$st/k_simd"], { PAPI_TOT_INS => 6007, 'x87_FP_uop:ALL' => 1002,
	'64bit_MMX_uop:ALL' => 1000, '128bit_MMX_uop:ALL' => 1000, 'packed_DP_uop:ALL' => 1000 });
# PAPI_TOT_INS alone (host time, no tag): nbsim counts every memory and FP
# class in one raw count (NEED_ICLASS, sim/tool/nb_need.c); the totals are
# those of the runs with a reader of the classes above and below
check("$_->[0], PAPI_TOT_INS alone", ["$st/$_->[0]"], { PAPI_TOT_INS => $_->[1] })
	for ['k_mem', 5005], ['k_fp', 5006], ['k_simd', 6007], ['k_rep', 6006];

# libpfm4's execution-tagging idiom: the upstream event with TAGn counts its
# own uops, execution_event:NBOGUSn the tagged ones (README "Native events")
check('k_fp, TAG1', ["$st/k_fp"], { 'scalar_DP_uop:ALL:TAG1' => 2000,
	'execution_event:NBOGUS1' => 2000, 'packed_SP_uop:ALL' => 1000 });
# three tagging units on two FIRM ESCRs: two runs, each TAGn event in the
# run of the execution_event counting its tag (apart, NBOGUSn would read 0)
{
	my ($c, $rc) = check('k_fp, TAG1 and TAG2 split into runs', ["$st/k_fp"], {
		'scalar_DP_uop:ALL:TAG1' => 2000, 'execution_event:NBOGUS1' => 2000,
		'packed_SP_uop:ALL:TAG2' => 1000, 'execution_event:NBOGUS2' => 1000,
		'X87_FP_retired' => 0 });
	my ($rc2, $text) = run('-e', 'scalar_DP_uop:ALL:TAG1,execution_event:NBOGUS1,'
		. 'packed_SP_uop:ALL:TAG2,execution_event:NBOGUS2,X87_FP_retired', '--', "$st/k_fp");
	like($text, qr/2 runs/, 'k_fp, TAG1 and TAG2: 2 runs') or diag($text);
}
my ($rc_tag, $text_tag) = run('-e', 'x87_FP_uop:ALL:TAG1,execution_event:NBOGUS0', '--', "$st/k_fp");
ok($rc_tag != 0 && $text_tag =~ /TagValue 0x2.*execution_event:NBOGUS1/,
	'a TAGn the execution_event does not count: refused with the reason') or diag($text_tag);

# ---- counting rules (sim/README.md "Counting rules"), a kernel each ----
check('k_rep (a REP string retires as one instruction)', ["$st/k_rep"],
	{ PAPI_TOT_INS => 6006, PAPI_LD_INS => 16000, PAPI_SR_INS => 16000 });
check('k_fwait (fstsw = fwait + fnstsw: two instructions)', ["$st/k_fwait"],
	{ PAPI_TOT_INS => 5004 });

# uops by the difference method: each iteration's uops, whatever the
# start and exit cost (k_x and k_x_2x differ by N iterations)
# (the uop model, sim/README.md: a load 1, a store 2 (address and data), a
# load-op 2, ALU and branch 1: k_mem = 1 + 2 + 2 + dec 1 + jnz 1)
my %uops_per_iter = (k_loop => 2, k_mem => 7, k_fp => 5, k_deadload => 11);
for my $k (sort keys %uops_per_iter) {
	my ($a) = counts(["$st/$k"], 'uops_retired:NBOGUS');
	my ($b) = counts(["$st/${k}_2x"], 'uops_retired:NBOGUS');
	my $n = $k eq 'k_deadload' ? 100 : 1000;
	is(($b->{'uops_retired:NBOGUS'} // 0) - ($a->{'uops_retired:NBOGUS'} // 0),
	   $uops_per_iter{$k} * $n, "$k: uops per iteration $uops_per_iter{$k} (difference method)");
}

# ---- nothing lost to VEX's optimiser ----
check('k_deadload (8 loads into one register per block)', ["$st/k_deadload"],
	{ PAPI_TOT_INS => 1105, PAPI_LD_INS => 800, PAPI_L1_LDM => 800 });
for my $k (qw(k_jnext k_jnext2)) {
	check("$k (jcc to the next instruction)", ["$st/$k"], { PAPI_BR_CN => 3000,
		PAPI_BR_TKN => 1999, PAPI_BR_NTK => 1001, PAPI_TOT_INS => 6004 });
}
# loop/loopnz whose outcome iropt knows (their exits removed): still branches
check('k_loopfold (loop, loopnz, loopz with known RCX and flags)', ["$st/k_loopfold"],
	{ PAPI_BR_CN => 22000, PAPI_BR_TKN => 18999, PAPI_BR_NTK => 3001, PAPI_TOT_INS => 47004 });
# the kernels catch the regression: with VEX's default register-update
# policy (--nbsim-exact-ir=no) the overwritten loads are lost
{
	my $w = "$dir/nbsim-noexact";
	open(my $fh, '>', $w) or die;
	print $fh "#!/bin/sh\nexec '$ENV{NBSIM}' --nbsim-exact-ir=no \"\$@\"\n";
	close $fh;
	chmod 0755, $w;
	local $ENV{NBSIM} = $w;
	my ($c) = counts(["$st/k_deadload"], 'PAPI_LD_INS');
	cmp_ok($c->{PAPI_LD_INS} // 0, '<', 800, 'k_deadload catches the loss (--nbsim-exact-ir=no: '
	       . ($c->{PAPI_LD_INS} // 'none') . ' loads)');
}

# ---- partitioned runs equal single-event runs ----
{
	my @ev = ('PAPI_BR_INS', 'retired_branch_type:CONDITIONAL', 'retired_branch_type:CALL',
		  'retired_branch_type:RETURN', 'retired_branch_type:INDIRECT', 'PAPI_LD_INS',
		  'PAPI_SR_INS', 'PAPI_L1_LDM', 'PAPI_L2_LDM', 'PAPI_TOT_INS');
	my ($rc, $text) = run('-x', ',', '-o', "$dir/p.csv", '-e', join(',', @ev), '--', "$st/k_branch");
	my ($all, $rows) = csv_counts("$dir/p.csv");
	my %runs = map { $_->[2] => 1 } @$rows;
	cmp_ok(scalar(keys %runs), '>', 1, 'the set takes more than one run');
	is_deeply([map { $_->[1] } @$rows], \@ev, '-x: events in the order given, spelled as given');
	for my $e (@ev) {
		my ($one) = counts(["$st/k_branch"], $e);
		is($all->{$e}, $one->{$e}, "partitioned $e equals its single-event run");
	}
}

# ---- table, JSON, default set ----
{
	my ($rc, $text) = run("$st/k_loop");
	is($rc, 0, 'default set: exit 0');
	like($text, qr/\b2,004\s+PAPI_TOT_INS/, 'table: thousands separators');
	like($text, qr/OS-mode counts are zero/, 'table: says OS-mode counts are zero');
	like($text, qr/page faults.*absent/s, 'table: page faults and interrupts absent');
	like($text, qr/prescott/, 'table: the model');
	like($text, qr/simulated cycles/, 'table: simulated cycles');
	like($text, qr/seconds host time/, 'table: host time');
	like($text, qr/instructions per cycle/, 'table: derived IPC');
	like($text, qr/runs .*none scaled/s, 'table: says the runs are exact, none scaled');
}
{
	my ($rc, $text) = run('--json', '-o', "$dir/j.json", '--model=northwood', "$st/k_loop");
	is($rc, 0, '--json: exit 0');
	open(my $fh, '<', "$dir/j.json");
	local $/;
	my $j = eval { decode_json(<$fh>) };
	ok($j, '--json parses as JSON') or diag($@);
	is($j->{model}, 'northwood', 'json: model');
	is($j->{backend}, 'nbsim', 'json: backend');
	my %c = map { $_->{event} => $_->{count} } @{ $j->{counts} };
	is($c{PAPI_TOT_INS}, 2004, 'json: PAPI_TOT_INS');
	is($c{PAPI_BR_INS}, 1000, 'json: PAPI_BR_INS');
	ok(exists $j->{derived}{ipc} && $j->{derived}{ipc} > 0, 'json: derived ipc');
	ok(abs($j->{derived}{uops_per_instruction} - ($c{'uops_retired:NBOGUS'} // 0) / 2004) < 1e-6,
	   'json: uops per instruction = uops / instructions');
	is(scalar @{ $j->{processes} }, 1, 'json: one process');
	is(scalar @{ $j->{processes}[0]{threads} }, 1, 'json: one thread');
}

# ---- exit status ----
{
	my ($c, $rc) = counts(["$st/k_loop_exit7"], 'PAPI_TOT_INS');
	is($rc, 7, "the program's exit status is nb_stat's");
	is($c->{PAPI_TOT_INS}, 2004, 'and its counts are written');
}

# ---- threads: per-thread rows and totals ----
{
	my ($rc, $text) = run('--per-thread', '-x', ',', '-o', "$dir/t.csv", '-e',
			      'packed_SP_uop:ALL,PAPI_TOT_INS', '--', "$st/threads", 1000);
	is($rc, 0, 'threads: exit 0');
	my ($c, $rows) = csv_counts("$dir/t.csv");
	is($c->{'packed_SP_uop:ALL'}, 6000, 'threads: total packed SP uops 1000*(1+2+3)');
	my @sp = map { $_->[0] } grep { $_->[1] eq 'packed_SP_uop:ALL' && ($_->[4] // '') ne '' } @$rows;
	is_deeply(\@sp, [1000, 2000, 3000], 'threads: per-thread rows exact (main, then in creation order)');
	my $sum = 0;
	$sum += $_->[0] for grep { $_->[1] eq 'PAPI_TOT_INS' && ($_->[4] // '') ne '' } @$rows;
	is($sum, $c->{PAPI_TOT_INS}, 'threads: the rows add up to the total instructions');
}

# ---- threads on two logical processors (--ht=yes): both LPs count ----
{
	my ($rc, $text) = run('--ht=yes', '--per-thread', '-x', ',', '-o', "$dir/h.csv", '-e',
			      'packed_SP_uop:ALL', '--', "$st/threads", 1000);
	my ($c, $rows) = csv_counts("$dir/h.csv");
	is($c->{'packed_SP_uop:ALL'}, 6000, '--ht=yes: threads on both LPs counted (total)');
	my @sp = map { $_->[0] } grep { ($_->[4] // '') ne '' } @$rows;
	is_deeply(\@sp, [1000, 2000, 3000], '--ht=yes: per-thread rows exact');
}

# ---- per-thread rows in the order the threads first ran, also when the
# LWP numbers wrap at pid_max: nb_stat sorted the rows by LWP, and in a
# make check on this machine (pid_max 32768) a thread came before main.
# Root moves the next pid near pid_max (ns_last_pid), so the threads'
# LWPs wrap below the main thread's ----
SKIP: {
	my $pm;
	if (open(my $f, '<', '/proc/sys/kernel/pid_max')) {
		$pm = <$f>;
		chomp $pm;
	}
	my $ok = defined $pm && -w '/proc/sys/kernel/ns_last_pid';
	skip('needs root to set /proc/sys/kernel/ns_last_pid (a pid wrap)', 2) unless $ok;
	# (how many pids nb_stat and the launcher take before the program's
	# main thread, and how many between it and its first thread, depend
	# on the launcher (its helper processes), on whether its link
	# directory was made yet, and on a busy machine's other processes:
	# each try that did not wrap sets the next pid from what it saw, so
	# that main starts half its gap below pid_max; up to 8 tries, every
	# try's rows checked)
	my ($wrapped, $order, @seen) = (0, 1);
	my $last = $pm - 9;
	for my $try (1 .. 8) {
		open(my $lp, '>', '/proc/sys/kernel/ns_last_pid') or last;
		print $lp $last;
		close $lp;
		my ($rc, $text) = run('--per-thread', '-x', ',', '-o', "$dir/w.csv", '-e',
				      'packed_SP_uop:ALL', '--', "$st/threads", 1000);
		my ($c, $rows) = csv_counts("$dir/w.csv");
		my @r = grep { ($_->[4] // '') ne '' } @$rows;
		my @sp = map { $_->[0] } @r;
		push @seen, join(' ', map { $_->[4] } @r);
		unless ("@sp" eq '1000 2000 3000') {
			$order = 0;
			diag("try $try: rows @sp\n$text");
		}
		if (@r == 3 && $r[1][4] < $r[0][4]) {
			$wrapped = 1;
			last;
		}
		if (@r == 3 && $r[0][4] > $last && $r[0][4] < $pm) {
			my ($before, $gap) = ($r[0][4] - $last, $r[1][4] - $r[0][4]);
			my $main = $pm - 1 - int(($gap > 1 ? $gap : 2) / 2);
			$last = $main - $before;
			$last = $pm - 2 if $last >= $pm - 1;
		}
	}
	ok($order, 'pid wrap: per-thread rows in creation order (main first), every try');
	ok($wrapped, "pid wrap: the threads' LWPs did wrap below main's in a try (LWPs: "
	   . join('; ', @seen) . ')');
}

# ---- which thread ran on which logical processor (--ht=yes) ----
# threads.c creates its threads one at a time, each joined before the
# next, so valgrind gives the second the first one's ThreadId 2; nbsim's
# fixed placement puts ThreadId t on LP (t - 1) mod 2 (sim/README.md
# "Hyper-Threading"): main LP0, both threads LP1.  Without --ht no LP.
{
	my ($rc, $text) = run('--ht=yes', '--per-thread', '--json', '-o', "$dir/l.json", '-e',
			      'packed_SP_uop:ALL', '--', "$st/threads", 1000);
	open(my $fh, '<', "$dir/l.json");
	local $/;
	my $j = eval { decode_json(<$fh>) } // {};
	my @t = @{ $j->{processes}[0]{threads} // [] };
	is_deeply([map { [$_->{tid}, $_->{lp} // '-', $_->{lp_last} // '-', $_->{counts}[0]{count}] } @t],
		  [[1, 0, 0, 1000], [2, 1, 1, 2000], [2, 1, 1, 3000]],
		  '--ht=yes json: each thread\'s lp (main LP0, the threads, ThreadId 2 both, LP1) beside its count');
	($rc, $text) = run('--ht=yes', '--per-thread', '-e', 'packed_SP_uop:ALL', '--', "$st/threads", 1000);
	my @lp = $text =~ /^ process \d+ thread (\d+) \(lwp \d+, (LP\d[^)]*)\):/mg;
	is("@lp", '1 LP0 2 LP1 2 LP1', '--ht=yes text: the per-thread rows say the LP ("thread 2 (lwp N, LP1)")')
		or diag($text);
	($rc, $text) = run('--per-thread', '-e', 'packed_SP_uop:ALL', '--', "$st/threads", 1000);
	my $n = () = $text =~ /^ process \d+ thread \d+ \(lwp \d+\):/mg;
	is($n, 3, 'without --ht: three per-thread rows, no LP named');
}

# ---- fork + exec with --follow ----
{
	my ($rc, $text) = run('--follow', '--json', '-o', "$dir/f.json", '-e', 'PAPI_TOT_INS',
			      '--', "$st/forkexec", "$st/k_loop_exit7");
	is($rc, 8, 'forkexec: exit status (child 7 + 1)');
	open(my $fh, '<', "$dir/f.json");
	local $/;
	my $j = eval { decode_json(<$fh>) } // {};
	my @p = @{ $j->{processes} // [] };
	is(scalar @p, 2, '--follow: two processes');
	# the child: glibc's fork return and execv up to the execve (a few
	# hundred instructions), then k_loop, exactly 2004 (t_nb_stat_exec.t
	# counts both images of a static program exactly)
	my $pre = ($p[1]{counts}[0]{count} // 0) - 2004;
	ok($pre > 0 && $pre < 5000, "--follow: the child counts from the fork through the exec: "
	   . "k_loop's 2004 and $pre before the exec");
	is($p[1]{exit}, 7, '--follow: the child\'s exit status');
	is($j->{counts}[0]{count}, $p[0]{counts}[0]{count} + $p[1]{counts}[0]{count},
	   '--follow: total = sum');
	($rc, $text) = run('--json', '-o', "$dir/g.json", '-e', 'PAPI_TOT_INS', '--',
			   "$st/forkexec", "$st/k_loop_exit7");
	open($fh, '<', "$dir/g.json");
	$j = eval { decode_json(<$fh>) } // {};
	is(scalar @{ $j->{processes} // [] }, 1, 'without --follow: the program alone');
}

# ---- a program that execs another (a wrapper script ending in `exec`, a
# pyenv shim): counted without --follow, as a per-task counter follows its
# task across execve (sim/kernel/nb_progfile.c, --nbsim-trace-forked).
# Before: nbsim ran with --trace-children=no, the exec'd program natively,
# and nb_stat failed with 121 ("nbsim wrote no counts") ----
{
	my $w = "$dir/wrap.sh";
	open(my $fh, '>', $w) or die "$w: $!";
	print $fh "#!/bin/sh\nexec \"\$@\"\n";
	close $fh;
	chmod 0755, $w;
	my ($c, $rc) = counts([$w, "$st/k_loop_exit7"], 'PAPI_TOT_INS');
	is($rc, 7, 'exec wrapper: the exec\'d program\'s exit status, without --follow');
	# (the shell's instructions up to its exec, then k_loop's 2004;
	# t_nb_stat_exec.t has the exact sum with k_exec)
	cmp_ok($c->{PAPI_TOT_INS} // 0, '>', 2004,
	       'exec wrapper: the shell and k_loop counted, without --follow');
	# ... and a forked child's execve is not followed without --follow:
	# nbsim writes one counts file (the program's), two with --follow
	for my $f ([0, 1], [1, 2]) {
		my $cd = "$dir/cnt$f->[0]";
		mkdir $cd;
		my @o = ('--trace-children=yes', "--nbsim-counts=$cd/counts.%p",
			 $f->[0] ? () : ('--nbsim-trace-forked=no'));
		system($ENV{NBSIM}, '-q', @o, '--', "$st/forkexec", "$st/k_loop_exit7");
		is($? >> 8, 8, "nbsim --nbsim-trace-forked=" . ($f->[0] ? 'yes' : 'no') .
		   ": forkexec's status");
		opendir(my $dh, $cd);
		my @n = grep { /^counts\.\d+$/ } readdir $dh;
		is(scalar @n, $f->[1], "nbsim --nbsim-trace-forked=" . ($f->[0] ? 'yes' : 'no') .
		   ": $f->[1] counts file(s)");
	}
}

# ---- Fortran (difference method: N and 2N iterations of 3 scalar DP uops) ----
{
	my ($a) = counts(["$st/f_sum", 1000], 'scalar_DP_uop:ALL');
	my ($b) = counts(["$st/f_sum", 2000], 'scalar_DP_uop:ALL');
	is(($b->{'scalar_DP_uop:ALL'} // 0) - ($a->{'scalar_DP_uop:ALL'} // 0), 3000,
	   'Fortran: 1000 more iterations, 3000 more scalar DP uops');
}

# ---- MPI: 2 ranks, one file each (-o stat.%r) ----
SKIP: {
	my $mpirun = -x '/usr/bin/mpirun.mpich' ? '/usr/bin/mpirun.mpich' : undef;
	skip('mpich is not installed (configure installs it)', 3) unless $mpirun && -x "$st/mpi_ranks";
	my $out = "$dir/stat.%r";
	system($mpirun, '-np', '2', $nb_stat, '-x', ',', '-o', $out, '-e', 'packed_SP_uop:ALL', '--',
	       "$st/mpi_ranks", 1000);
	is($? >> 8, 0, 'mpirun -np 2 nb_stat: exit 0');
	is(csv_counts("$dir/stat.0")->{'packed_SP_uop:ALL'}, 1000, 'MPI rank 0: its file, exact');
	is(csv_counts("$dir/stat.1")->{'packed_SP_uop:ALL'}, 2000, 'MPI rank 1: its file, exact');
}

# ---- MPI with a set that takes several runs: refused, with the runs as
# -e lists (a second MPI_Init in one job fails: the second run died of
# SIGPIPE, and before that rank 1 hung reading its standard input) ----
SKIP: {
	my $mpirun = -x '/usr/bin/mpirun.mpich' ? '/usr/bin/mpirun.mpich' : undef;
	skip('mpich is not installed (configure installs it)', 3) unless $mpirun && -x "$st/mpi_ranks";
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		open(STDIN, '<', '/dev/null');
		exec $mpirun, '-np', '2', $nb_stat, '-x', ',', '-o', "$dir/multi.%r", '--', "$st/mpi_ranks", 1000
			or exit 250;
	}
	my $text = do { local $/; <$fh> } // '';
	close $fh;
	isnt($? >> 8, 0, 'mpirun nb_stat with a set of several runs: refused (non-zero status)');
	like($text, qr/under an MPI launcher \(PMI_RANK is set\) PROGRAM can run only once per rank/,
	     'mpirun, several runs: says why');
	like($text, qr/-e PAPI_TOT_CYC,\S+ \(run 1\), -e \S+ \(run 2\)/, 'mpirun, several runs: gives the runs as -e lists');
}

# ---- -o with %r and %p ----
{
	local $ENV{PMI_RANK} = 5;
	my ($rc) = run('-x', ',', '-o', "$dir/r.%r", '-e', 'PAPI_TOT_INS', "$st/k_loop");
	is(csv_counts("$dir/r.5")->{PAPI_TOT_INS}, 2004, '-o FILE.%r: the rank from PMI_RANK');
	($rc) = run('-x', ',', '-o', "$dir/pid.%p", '-e', 'PAPI_TOT_INS', "$st/k_loop");
	my @f = glob("$dir/pid.[0-9]*");
	is(scalar @f, 1, '-o FILE.%p: one file named with the pid');
}

# ---- bad input: message and distinct status, before anything runs ----
my @bad = (
	[ 'unknown event', 124, qr/nosuch_event/, '-e', 'nosuch_event', "$st/k_loop" ],
	[ 'unknown mask', 124, qr/NOMASK|mask/i, '-e', 'branch_retired:NOMASK', "$st/k_loop" ],
	[ 'event missing on the model', 123, qr/prescott.*xeonmp/s, '-e', 'PAPI_L3_TCM', "$st/k_loop" ],
	[ 'bad option', 125, qr/unknown option/, '--bogus', "$st/k_loop" ],
	[ 'bad model', 125, qr/unknown model/, '--model=pentium', "$st/k_loop" ],
	[ 'missing program', 125, qr/no program/ ],
	[ 'program not found', 127, qr/not found/, "$dir/no/such/program" ],
	[ 'program not executable', 126, qr/not an executable/, "$dir" ],
	[ '-x and --json', 125, qr/exclude/, '-x', ',', '--json', "$st/k_loop" ],
	[ 'unwritable -o', 122, qr/cannot write/, '-o', "$dir/no/such/dir/out", "$st/k_loop" ],
);
for my $b (@bad) {
	my ($name, $status, $re, @args) = @$b;
	my ($rc, $text) = run(@args);
	is($rc, $status, "bad input: $name: status $status");
	like($text, $re, "bad input: $name: message");
	unlike($text, qr/Performance counter stats/, "bad input: $name: nothing ran");
}
ok(!-e "$dir/no/such/dir/out" && !glob("$dir/no/such/dir/out.*"), 'unwritable -o: nothing half-written');

# ---- the perf backend refuses clearly on a host that is not a NetBurst ----
SKIP: {
	open(my $ci, '<', '/proc/cpuinfo');
	my $fam = 0;
	while (<$ci>) { $fam = $1, last if /^cpu family\s*:\s*(\d+)/ }
	skip('the host is a NetBurst (family 15): the perf backend would count', 2) if $fam == 15;
	my ($rc, $text) = run('--backend=perf', '-e', 'PAPI_TOT_INS', "$st/k_loop");
	is($rc, 121, '--backend=perf on a non-NetBurst host: status 121');
	like($text, qr/not a NetBurst/, '--backend=perf: says why');
}

done_testing();

#!/usr/bin/perl
# nb_stat's command line and what it hands on: an event list with no event
# in it, PROGRAM found in PATH as execvp(3) finds it, every argument passed
# to PROGRAM, --json that is JSON (UTF-8) whatever bytes the arguments hold.
# Each was once wrong: '-e ,' counted the default set, a non-executable
# file of PROGRAM's name early in PATH hid the executable one (status 126
# where the shell and nbsim run it), arguments past the 1023rd were
# dropped without a word, a non-UTF-8 argument made --json unparsable, a
# set-ID program failed only after valgrind's start.  And --clock, which
# hands nbsim its sampled clock.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use JSON::PP;
use NbStat;

my $dir = tempdir(CLEANUP => 1);

# an event list without an event: a usage error like -e ''
for my $e ('', ',', ',,') {
	my ($rc, $text) = run_nb_stat('-e', $e, '--', "$st/k_loop");
	is($rc, 125, "-e '$e': status 125");
	like($text, qr/-e: empty event list/, "-e '$e': says so");
	unlike($text, qr/PAPI_TOT_CYC|Performance counter stats/, "-e '$e': nothing counted");
}

# PATH: a file of the name that is not executable, or a directory, is
# passed over, as execvp and the shell do
{
	mkdir "$dir/$_" for qw(p1 p2 p3);
	open(my $fh, '>', "$dir/p1/k_prog") or die;
	print $fh "not a program\n";
	close $fh;
	chmod 0644, "$dir/p1/k_prog";
	mkdir "$dir/p2/k_prog";
	symlink("$st/k_loop_exit7", "$dir/p3/k_prog") or die;
	local $ENV{PATH} = "$dir/p1:$dir/p2:$dir/p3:$ENV{PATH}";
	my ($rc, $text) = run_nb_stat('-x', ',', '-e', 'PAPI_TOT_INS', '--', 'k_prog');
	is($rc, 7, 'PATH: k_prog after a non-executable one and a directory runs (exit 7)')
		or diag($text);
	like($text, qr/^2004,PAPI_TOT_INS,1,,$/m, 'PATH: and is counted');
	unlink "$dir/p3/k_prog";
	($rc, $text) = run_nb_stat('-e', 'PAPI_TOT_INS', '--', 'k_prog');
	is($rc, 126, 'PATH: no executable k_prog, a non-executable one: status 126');
	like($text, qr/k_prog: not an executable file/, 'PATH: no executable k_prog: says so');
}

# a set-user-ID or set-group-ID program: valgrind refuses it after its
# start ("Can't execute setuid"), and nb_stat said "nbsim wrote no counts";
# now 126 with the reason before anything runs
for my $m ([04755, 'user'], [02755, 'group']) {
	my $f = "$dir/k_set$m->[1]id";
	copy("$st/k_loop_exit7", $f) or die "copy: $!";
	chmod $m->[0], $f;
	SKIP: {
		skip("this file system drops the set-ID bit", 3) unless (stat $f)[2] & 06000;
		my ($rc, $text) = run_nb_stat('-e', 'PAPI_TOT_INS', '--', $f);
		is($rc, 126, "set-$m->[1]-ID program: status 126");
		like($text, qr/set-$m->[1]-ID: valgrind, so nbsim, cannot run it/, "set-$m->[1]-ID program: says why");
		unlike($text, qr/wrote no counts|Performance counter stats/, "set-$m->[1]-ID program: nothing ran");
	}
}

# every argument reaches PROGRAM (k_argc exits with argc mod 256)
for my $n (10, 2000, 5000) {
	my ($rc, $text) = run_nb_stat('-x', ',', '-e', 'PAPI_TOT_INS', '--', "$st/k_argc", 1 .. $n);
	is($rc, ($n + 1) % 256, "$n arguments: all reach PROGRAM (argc mod 256)") or diag(substr($text, 0, 500));
}

# --json is UTF-8 JSON whatever bytes the arguments hold
{
	my ($rc, $text) = run_nb_stat('--json', '-e', 'PAPI_TOT_INS', '--', "$st/k_argc",
		"caf\xe9", "ok \xc3\xa9", "\x01\"\\");
	is($rc, 4, '--json, odd arguments: exit status 4');
	my $j = eval { JSON::PP->new->utf8->decode($text) };
	ok($j, '--json, odd arguments: parses as UTF-8 JSON') or diag($@);
	is_deeply($j->{program}, [ "$st/k_argc", "caf\x{fffd}", "ok \x{e9}", "\x01\"\\" ],
		  '--json: a byte that is not UTF-8 becomes U+FFFD, valid UTF-8 is kept');
}

# --clock: nbsim's sampled clock, the default (sim/README.md "The
# sampled clock"), or the model's on every uop (--clock=model): the same
# instructions, cycles within 1% of the model's (measured 0.16% on this
# awk loop), said in the header and the JSON, the same cycles with the
# four-preset set; a bad value is a usage error.  The checks of a header
# or of the JSON's clock and time fields run a static kernel (k_loop):
# what they check does not depend on the program, and the awk loop is
# 10^8 instructions (a run with --clock=model, 4 s of CPU)
{
	my @prog = ('awk', 'BEGIN { for (i = 0; i < 300000; i++) s += i * i % 7; print s > "/dev/null" }');
	my @small = ("$st/k_loop");
	my ($rc, $text) = run_nb_stat('--clock=often', '--', @small);
	is($rc, 125, '--clock=often: status 125');
	like($text, qr/--clock takes model or sampled, not 'often'/, '--clock=often: says so');
	my ($rm, $jm) = run_nb_stat('--json', '--clock=model', '-e', 'PAPI_TOT_CYC,PAPI_TOT_INS',
				    '--', @prog);
	my ($rs, $js) = run_nb_stat('--json', '-e', 'PAPI_TOT_CYC,PAPI_TOT_INS', '--', @prog);
	my ($rx, $jx) = run_nb_stat('--json', '--clock=sampled', '-e', 'PAPI_TOT_CYC,PAPI_TOT_INS',
				    '--', @small);
	my $m = eval { JSON::PP->new->utf8->decode($jm) };
	my $s = eval { JSON::PP->new->utf8->decode($js) };
	my $x = eval { JSON::PP->new->utf8->decode($jx) };
	ok($m && $s && $x && $rm == 0 && $rs == 0 && $rx == 0,
	   '--clock=model, the default and --clock=sampled: all count (JSON)')
		or diag($jm, $js, $jx);
	my %cm = map { $_->{event} => $_->{count} } @{ $m->{counts} || [] };
	my %cs = map { $_->{event} => $_->{count} } @{ $s->{counts} || [] };
	my %cx = map { $_->{event} => $_->{count} } @{ $x->{counts} || [] };
	is($s->{clock}, 'sampled', 'JSON: the default clock is the sampled one');
	is($m->{clock}, 'model', 'JSON: --clock=model says so');
	ok(defined $cs{PAPI_TOT_CYC} && defined $cx{PAPI_TOT_CYC},
	   "--clock=sampled: counts, as the default does");
	ok(defined $cm{PAPI_TOT_INS} && $cm{PAPI_TOT_INS} > 1e8 &&
	   $cm{PAPI_TOT_INS} == ($cs{PAPI_TOT_INS} // -1),
	   "--clock=model: the same instructions ($cm{PAPI_TOT_INS})");
	my $e = $cm{PAPI_TOT_CYC} ? abs(($cs{PAPI_TOT_CYC} // 0) - $cm{PAPI_TOT_CYC}) / $cm{PAPI_TOT_CYC} : 1;
	ok($e < 0.01 && $cs{PAPI_TOT_CYC} != $cm{PAPI_TOT_CYC},
	   sprintf("the sampled clock's cycles %d, the model's %d: %.3f%% off (1%%), not the same",
		   $cs{PAPI_TOT_CYC} // 0, $cm{PAPI_TOT_CYC} // 0, 100 * $e));
	($rs, $text) = run_nb_stat('-e', 'PAPI_TOT_CYC', '--', @small);
	like($text, qr/backend nbsim, sampled clock, simulated time:/,
	     'the default with cycles counted: the header says sampled clock, simulated time');
	($rs, $text) = run_nb_stat('--clock=model', '-e', 'PAPI_TOT_CYC', '--', @small);
	like($text, qr/backend nbsim, model clock, simulated time:/, '--clock=model: the header says so');
	# --time: what PROGRAM's clocks read (docs/simulated-time.md), said in
	# the header and the JSON; the counts do not depend on it.  auto (the
	# default): simulated when an event needs the timing model (cycles),
	# the host's otherwise
	is($s->{time}, 'simulated', 'JSON: cycles counted: the program\'s clocks are simulated by default');
	is($s->{time_chosen}, 'auto', 'JSON: ... and says the time was chosen (auto)');
	my ($rh, $jh) = run_nb_stat('--json', '--time=host', '-e', 'PAPI_TOT_CYC,PAPI_TOT_INS', '--', @prog);
	my $h = eval { JSON::PP->new->utf8->decode($jh) };
	is($h && $h->{time}, 'host', 'JSON: --time=host says so');
	is($h && $h->{time_chosen}, 'given', 'JSON: --time=host: the time was given');
	my %ch = map { $_->{event} => $_->{count} } @{ ($h && $h->{counts}) || [] };
	# (not exactly: what the program computes from its clocks may differ)
	ok(abs(($ch{PAPI_TOT_INS} // 0) - $cs{PAPI_TOT_INS}) <= $cs{PAPI_TOT_INS} / 1000,
	   "--time=host: the same instructions within 0.1% ($ch{PAPI_TOT_INS}, $cs{PAPI_TOT_INS})");
	($rs, $text) = run_nb_stat('-e', 'PAPI_TOT_INS', '--', @small);
	like($text, qr/backend nbsim, sampled clock, host time \(no event needs the timing model; --time=simulated\):/,
	     'only instructions counted: host time by default, the header says why');
	($rh, $jh) = run_nb_stat('--json', '-e', 'PAPI_TOT_INS,PAPI_BR_MSP', '--', @small);
	$h = eval { JSON::PP->new->utf8->decode($jh) };
	ok($h && $h->{time} eq 'host' && $h->{time_chosen} eq 'auto',
	   'JSON: instructions and mispredictions: host time, chosen (auto)');
	($rs, $text) = run_nb_stat('--time=simulated', '-e', 'PAPI_TOT_INS', '--', @small);
	like($text, qr/backend nbsim, sampled clock, simulated time:/, '--time=simulated: the header says so');
	($rs, $text) = run_nb_stat('--time=auto', '-e', 'global_power_events:RUNNING', '--', @small);
	like($text, qr/backend nbsim, sampled clock, simulated time:/,
	     '--time=auto with a native cycle event: simulated time');
	($rs, $text) = run_nb_stat('--time=never', '--', @small);
	is($rs, 125, '--time=never: refused (125)');
	like($text, qr/--time takes auto, simulated or host, not 'never'/, '--time=never: the values named');
	# the same cycles whatever else is counted: the program runs the same
	# superblocks with any set (nb_stat programs the PMU before its first
	# instruction), so the sampled runs are the same (sim/README.md "The
	# sampled clock": the set's own PMU accesses are what could move them,
	# and the clock is anchored at each).  On a program whose every run
	# is the same: mawk, the awk above, reads getrandom(2) at its start,
	# and its runs differ (under the model too: 1 run in 6 read 2 cycles
	# fewer, the same instructions; two runs read 2 cycles apart in CI);
	# sort, one thread, over a generated file, does not
	open(my $nf, '>', "$dir/nums") or die;
	my $seed = 12345;
	for (1 .. 30000) {
		$seed = ($seed * 1103515245 + 12345) % 2147483648;
		print $nf $seed % 1000000, "\n";
	}
	close $nf;
	my @sort = ('sort', '--parallel=1', '-n', '-o', '/dev/null', "$dir/nums");
	my %c;
	# (and --clock=sampled gives the default's)
	for my $set ('PAPI_TOT_CYC,PAPI_TOT_INS', 'PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP',
		     'PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP,PAPI_LD_INS', 'sampled') {
		my @e = $set eq 'sampled' ? ('--clock=sampled', '-e', 'PAPI_TOT_CYC,PAPI_TOT_INS')
			: ('-e', $set);
		my ($r, $j) = run_nb_stat('--json', @e, '--', @sort);
		my $o = eval { JSON::PP->new->utf8->decode($j) };
		$c{$set} = { map { $_->{event} => $_->{count} } @{ ($o && $o->{counts}) || [] } };
		$c{$set}{rc} = $r;
	}
	my @k = sort keys %c;
	my $same = !grep { $c{$_}{rc} != 0 || !defined $c{$_}{PAPI_TOT_CYC} ||
			   $c{$_}{PAPI_TOT_CYC} != $c{$k[0]}{PAPI_TOT_CYC} ||
			   $c{$_}{PAPI_TOT_INS} != $c{$k[0]}{PAPI_TOT_INS} } @k;
	ok($same && ($c{$k[0]}{PAPI_TOT_INS} // 0) > 1e7,
	   "sort: the same cycles and instructions with two, four and five events counted, and " .
	   "with --clock=sampled (" .
	   join(', ', map { ($c{$_}{PAPI_TOT_CYC} // 0) . '/' . ($c{$_}{PAPI_TOT_INS} // 0) } @k) .
	   ")");
}

done_testing();

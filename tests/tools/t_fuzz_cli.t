#!/usr/bin/perl
# A fuzz pass over nb_stat's and nbsim's command lines and environment
# (TMPDIR, NBSIM_*, P4NETBURST_*), from a fixed seed: 200 nb_stat cases
# and 60 nbsim cases, each built from pieces that are valid, almost valid
# or hostile (control bytes, quotes, %-sequences, very long names, odd
# paths).  Every case must end by itself (an alarm of 120 s per case
# guards against a hang), not by a signal of its own, with no sanitizer
# report (nb_stat is the sanitized build), with a status nb_stat or
# nbsim documents, and without writing a file anywhere in the sandbox but
# the -o path it was given and nbsim's private library directory; the
# program it counts keeps its bytes.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use File::Find;
use File::Copy qw(copy);
use POSIX qw(WIFSIGNALED WTERMSIG WIFEXITED WEXITSTATUS);
use NbStat;

my $nbsim = $ENV{NBSIM} // die "NBSIM not set (run through make)\n";
my $box = tempdir(CLEANUP => 1);
my $prog = "$box/prog";
copy("$st/k_loop", $prog) or die "copy: $!";
chmod 0755, $prog;
my $prog_bytes = do { open(my $fh, '<:raw', $prog) or die; local $/; <$fh> };
mkdir "$box/$_" for qw(cwd tmp out dir);
mkdir "$box/tmp/a b";
chmod 0555, "$box/dir";           # not writable (root ignores it)

srand(27);                       # the fixed seed: the same cases every run
sub pick { $_[int(rand(@_))] }
sub junk {                       # a hostile string of up to N bytes
	my ($n) = @_;
	my @c = ("\e", "\a", "\n", "\t", "\x7f", ' ', ',', ':', ';', '%', "'", '"', '$', '\\', '*',
		 '-', '=', '/', 'A', 'z', '9', '_', "\xc3\xa9", "\x9b");
	return join('', map { pick(@c) } 1 .. int(rand($n + 1)));
}
sub event {
	return pick('PAPI_TOT_INS', 'PAPI_TOT_CYC', 'PAPI_BR_MSP', 'uops_retired:NBOGUS',
		    'instr_retired:NBOGUSNTAG:u', 'p4netburst:::PAPI_L1_LDM', 'front_end_event:TAG1',
		    '1stL_cache_load_miss_retired', 'PAPI_FP_OPS', 'global_power_events:RUNNING:c=1',
		    'PAPI_NOPE', '', ',', 'instr_retired:', 'x' x int(rand(400)),
		    junk(20), 'PAPI_TOT_INS,' x int(rand(70)));
}
sub outpath {
	return pick("$box/out/r.txt", "$box/out/r%p.%r", "$box/out/%%", "$box/out/%x", '',
		    "$box/out/" . junk(8), "$box/dir/r", "$box/out", "$box/nodir/r", 'rel.txt',
		    "$box/out/" . ('n' x 300), '/dev/null');
}
my @stat_opts = (
	sub { ('-e', event()) }, sub { ('--event=' . event()) }, sub { ('-x', pick(',', ';', '', junk(3))) },
	sub { ('-j') }, sub { ('--json') }, sub { ('-o', outpath()) }, sub { ('--output=' . outpath()) },
	sub { ('--model=' . pick('prescott', 'northwood', 'willamette', 'cedarmill', 'xeonmp', '3', '', junk(6))) },
	sub { ('--ht=' . pick('yes', 'no', '', junk(4))) }, sub { ('--clock=' . pick('sampled', 'model', junk(4))) },
	sub { ('--backend=' . pick('auto', 'nbsim', 'perf', junk(4))) }, sub { ('--per-thread') },
	sub { ('--follow') }, sub { ('-' . junk(3)) }, sub { ('--' . junk(6)) }, sub { ('-e') }, sub { ('-o') },
	sub { ('-h') },
);
my @sim_opts = (
	sub { ('--model=' . pick('prescott', 'northwood', 'xeonmp', junk(5))) }, sub { ('--model') },
	sub { ('--ht=' . pick('yes', 'no', junk(3))) }, sub { ('--tool=' . junk(4)) },
	sub { ('--nbsim-clock=' . pick('sampled', 'model', 'walk', 'fast', junk(4))) },
	sub { ('--nbsim-sample=' . pick('1', '8000', '0', '1000001', '-5', junk(4))) },
	sub { ('--nbsim-counts=' . pick("$box/out/c.%p", "$box/out/" . junk(6), "$box/dir/c")) },
	sub { ('--nbsim-program=' . pick("$box/nofile", $prog, "$box/out/" . junk(4))) },
	sub { ('--nbsim-isa=' . pick('model', 'host', junk(3))) }, sub { ('--perf-paranoid=' . pick('-1', '2', '9', junk(2))) },
	sub { ('--msr-driver=' . pick('yes', 'no', junk(2))) }, sub { ('--nbsim-pmi-latency=' . pick('0', '100001', junk(3))) },
	sub { ('-' . junk(4)) }, sub { ('--help') },
);
sub environment {
	my %e;
	$e{TMPDIR} = pick("$box/tmp", "$box/tmp/a b", "$box/tmp/" . junk(6), "$box/nodir", 'relative', '',
			  "$box/dir", "$box/tmp\n");
	$e{NBSIM_VALGRIND} = pick('/nonexistent', $prog, "$box/dir", junk(5)) if rand() < 0.15;
	$e{NBSIM_TOOL} = pick('/nonexistent', $prog, junk(5)) if rand() < 0.1;
	$e{NBSIM_VALGRIND_LIBEXEC} = pick('/nonexistent', "$box", junk(5)) if rand() < 0.1;
	$e{P4NETBURST_BACKEND} = pick('sim', 'msr', 'perf', 'bogus', junk(4)) if rand() < 0.2;
	$e{P4NETBURST_MSR_DEV} = pick('/dev/cpu/%d/msr', "$box/out/msr%d", '%n%n%s', junk(8)) if rand() < 0.2;
	$e{XDG_RUNTIME_DIR} = pick("$box/tmp/x:y", "$box/tmp") if rand() < 0.1;
	return \%e;
}

# files under the sandbox, but what a case may create: nbsim's private
# library links (TMPDIR/nbsim-UID) and the -o path
sub files {
	my %f;
	find({ no_chdir => 1, wanted => sub { $f{$File::Find::name} = 1 } }, $box);
	return \%f;
}

# run CMD with ENV in $box/cwd -> (wait status, output); -1: a hang
sub run_case {
	my ($env, @cmd) = @_;
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		open(STDIN, '<', '/dev/null');
		chdir "$box/cwd" or exit 250;
		delete $ENV{$_} for grep { /^(NBSIM_|P4NETBURST_|XDG_RUNTIME_DIR$)/ } keys %ENV;
		$ENV{$_} = $env->{$_} for keys %$env;
		exec @cmd or exit 250;
	}
	my $out = '';
	my $ok = eval {
		local $SIG{ALRM} = sub { die "hang\n" };
		alarm 120;
		local $/;
		$out = <$fh> // '';
		close $fh;
		alarm 0;
		1;
	};
	if (!$ok) {
		kill 'KILL', $pid;
		waitpid($pid, 0);
		return (-1, $out);
	}
	return ($?, $out);
}

my (@bad, %status, $n);
my $before = files();
for my $case (1 .. 260) {
	my $is_sim = $case > 200;
	my $env = environment();
	my @args = map { ($is_sim ? pick(@sim_opts) : pick(@stat_opts))->() } 1 .. int(rand(5));
	my @progs = ($prog, $prog, $prog, "$box/noprog", "$box/dir", 'k_loop_not_in_path', junk(4));
	my @cmd = ($is_sim ? $nbsim : $nb_stat, @args, (rand() < 0.5 ? '--' : ()), pick(@progs),
		   (rand() < 0.2 ? junk(5) : ()));
	my ($w, $out) = run_case($env, @cmd);
	my $what = join(' ', map { my $s = $_; $s =~ s/([^\x20-\x7e])/sprintf('\\x%02x', ord $1)/ge;
				  length($s) > 60 ? substr($s, 0, 60) . '...' : $s } @cmd[1 .. $#cmd]);
	my @why;
	push @why, 'hang' if $w == -1;
	push @why, 'killed by signal ' . WTERMSIG($w) if $w > 0 && WIFSIGNALED($w);
	push @why, 'a sanitizer report' if $out =~ /Sanitizer|runtime error:/;
	my $st = $w >= 0 && WIFEXITED($w) ? WEXITSTATUS($w) : -1;
	# nb_stat: k_loop's status (0), 121-127, or 2 with an odd nbsim;
	# nbsim: k_loop's 0, its own 1/2, PROGRAM's 126/127
	push @why, "status $st" if $st >= 0 && $st != 0 && $st != 1 && $st != 2 &&
		!($st >= 121 && $st <= 127);
	my $after = files();
	my ($o) = grep { defined } map { /^(?:-o|--output=)(.*)$/s ? ($1 eq '' ? undef : $1) : undef } @args;
	my @oi = grep { $args[$_] eq '-o' } 0 .. $#args;
	$o = $args[$oi[0] + 1] if @oi && $oi[0] < $#args;
	for my $f (sort keys %$after) {
		next if $before->{$f};
		# nbsim.sh's private library links, in whichever TMPDIR or
		# XDG_RUNTIME_DIR it could use
		next if $f =~ m{/nbsim-\d+(/|$)};
		if (defined $o) {
			(my $re = quotemeta($o =~ m{^/} ? $o : "$box/cwd/$o")) =~ s/\\%\\%/%/g;
			$re =~ s/\\%[pr]/\\d+/g;
			next if $f =~ /^$re$/;
		}
		next if $is_sim && $f =~ m{^\Q$box\E/out/};    # --nbsim-counts names anything there
		push @why, "wrote $f";
		unlink $f;
	}
	my $bytes = do { open(my $fh, '<:raw', $prog) or die; local $/; <$fh> };
	push @why, 'PROGRAM changed' if $bytes ne $prog_bytes;
	if ($bytes ne $prog_bytes) {
		open(my $fh, '>:raw', $prog) or die;
		print $fh $prog_bytes;
		close $fh;
	}
	@why = (@why[0 .. 2], '...') if @why > 3;
	push @bad, "case $case: @why: $what" . ($why[0] =~ /status|signal|Sanitizer/ ? "\n" . substr($out, 0, 400) : '')
		if @why;
	$status{$st}++;
	$n++;
	# the sandbox back to its first state (outputs removed)
	for my $f (sort { length($b) <=> length($a) } keys %$after) {
		next if $before->{$f} || $f =~ m{/nbsim-\d+(/|$)};
		-d $f && !-l $f ? rmdir $f : unlink $f;
	}
}
is($n, 260, '260 cases ran');
is(scalar(@bad), 0, 'no crash, no hang, no sanitizer report, no undocumented status, nothing '
   . 'written outside the output path, PROGRAM unchanged') or diag(join("\n", @bad[0 .. ($#bad < 9 ? $#bad : 9)]));
ok(($status{0} // 0) > 10, 'some cases counted (status 0: ' . ($status{0} // 0) . ')');
ok(scalar(grep { $_ >= 121 && $_ <= 127 } keys %status) >= 4,
   'the cases reach several of nb_stat\'s own statuses (' . join(', ', map { "$_: $status{$_}" } sort { $a <=> $b } keys %status) . ')');
done_testing();

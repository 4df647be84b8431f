#!/usr/bin/perl
# nb_record's perf backend (utils/nb_record_perf.c: perf_event_open
# sampling events on PROGRAM, their mmap ring buffers, PERF_RECORD_SAMPLE,
# COMM and MMAP2 records, symbols from the ELF symbol tables) run end to
# end under nbsim's emulated P4 perf driver, against the sim path (nbsim's
# own sampling, --nbsim-samples) for the same IEBS run:
#  - tests/record/hotspot two, 1stL_cache_load_miss_retired every 1000
#    with --no-precise and -g, on Northwood: the per-IP sample counts of the
#    two profiles are equal (the same PMI, the same skid, the same reload:
#    Linux's x86_perf_event_set_period leaves the skid's events in the
#    next period as nbsim's sampler does), as are the samples' callers
#    from main inwards (the kernel's user call chain = valgrind's unwinder);
#  - the ring buffer's samples = floor(count / 1000), the count the
#    perf backend reads at the end; nothing lost or throttled;
#  - the ELF symbol tables name hotspot's functions: miss3's and miss1's
#    chase as nb_report --folded shows them;
#  - source lines (addr2line on the DWARF line tables): every address of
#    hotspot in the sim path's profile (samples and callers) has the file
#    and line there that valgrind's debug-info reader gave the sim path;
#  - -F 20000: the kernel's frequency mode (attr.freq, the emulated
#    driver adjusting the period as perf_adjust_period does), the
#    profile's period the samples' average, which times the samples is
#    the count read at the end within a fifth (the events after the last
#    sample, and the first periods' ramp);
#  - --follow on tests/stat/forkexec (a fork, the child execs true): the
#    emulated driver's PERF_RECORD_FORK gives the child its parent's
#    mappings (a space of its own before its exec), one process followed;
#  - bad input: --backend=perf where it cannot work (not a NetBurst: this
#    host), --precise on it (Linux's P4 driver samples no PEBS), nbsim's
#    options with it, an unknown backend.
# The two runs see the same environment (which loads miss in ld.so moves
# with its size, and with it the phase of the periods): nb_record under
# nbsim needs P4NETBURST_BACKEND=perf (its native backends step aside
# under nbsim otherwise), and valgrind rebuilds LD_PRELOAD at the child's
# exec with a trailing ':', so both runs start with it empty.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use RunCmd;
use File::Temp qw(tempdir);

my $bin = $ENV{NB_UTILS_BIN} or BAIL_OUT("NB_UTILS_BIN not set (run through make check)");
my $nbsim = $ENV{NBSIM} or BAIL_OUT("NBSIM not set (run through make check)");
my $san_rec = "$bin/nb_record";
# under nbsim the tool itself runs on the simulated CPU: the build without
# the sanitizers (valgrind and ASan do not mix)
my $rec = "$ENV{NB_BUILD}/utils/nb_record";
my $rep = "$bin/nb_report";
my $hs = "$ENV{NB_BUILD}/tests/record/hotspot";
my $dir = tempdir(CLEANUP => 1);
-x $rec && -x $san_rec && -x $hs or BAIL_OUT("nb_record or hotspot not built");
my $EV = '1stL_cache_load_miss_retired';

for my $k (keys %ENV) {
	delete $ENV{$k} unless $k =~ /^(?:NB_\w+|NBSIM\w*|PATH|HOME|TMPDIR|LANG|LC_\w+|USER|LOGNAME)$/;
}
$ENV{P4NETBURST_BACKEND} = 'perf';
$ENV{LD_PRELOAD} = '';

# a profile's samples: per IP, and per (IP, callers from main inwards);
# the source line of each address in hotspot
sub profile {
	my ($file) = @_;
	my (%sym, %ip, %stack, %line, $n);
	open(my $fh, '<', $file) or return undef;
	while (my $l = <$fh>) {
		chomp $l;
		my @f = split /\t/, $l, -1;
		if ($f[0] eq 'sym') {
			$sym{"$f[1]:$f[2]"} = $f[5];
			$line{$f[2]} = "$f[6]:$f[7]" if $f[3] =~ m{/hotspot$};
		} elsif ($f[0] eq 'sample') {
			$n++;
			$ip{$f[6]}++;
			my @st = $f[8] eq '-' ? () : map { $sym{"$f[2]:$_"} // '?' } split /,/, $f[8];
			my @in;
			for (@st) {
				push @in, $_;
				last if $_ eq 'main';
			}
			$stack{join(';', $f[6], @in)}++ if @in && $in[-1] eq 'main';
		}
	}
	return { n => $n // 0, ip => \%ip, stack => \%stack, line => \%line };
}

sub fmt {
	my ($h) = @_;
	return join(' ', map { "$_:$h->{$_}" } sort keys %$h);
}

my @args = ('--no-precise', '-g', '-e', "$EV/1000", '--', $hs, 'two');
my ($rc, $sim_text) = run_cmd($san_rec, '--model=northwood', '-o', "$dir/sim.prof", @args);
is($rc, 0, 'the sim path: nb_record --backend=nbsim (the default off a NetBurst)') or diag $sim_text;
my $t;
($rc, $t) = run_cmd($nbsim, '--model=northwood', '--', $rec, '--backend=perf', '-o', "$dir/perf.prof", @args);
is($rc, 0, 'the perf path: nbsim -- nb_record --backend=perf') or diag $t;
like($t, qr/IEBS through perf_event_open/, '... it says it samples through perf_event_open');
my ($n, $count) = $t =~ /(\d+) samples of \Q$EV\E \(every 1000, IEBS through perf_event_open; it counted (\d+)\)/;
my $sim = profile("$dir/sim.prof");
my $perf = profile("$dir/perf.prof");
ok($sim && $perf, 'both profiles written');
$sim //= { n => -1, ip => {}, stack => {}, line => {} };
$perf //= { n => -2, ip => {}, stack => {}, line => {} };
ok(defined $count && $n == int($count / 1000),
   'perf: the ring buffer\'s samples = floor(count / 1000) (' . ($n // '?') . ' of ' . ($count // '?') . ')');
is($perf->{n}, $n // -1, '... all of them in the profile');
unlike($t, qr/lost|throttled/, '... none lost, none throttled');
is($perf->{n}, $sim->{n}, "the same number of samples as the sim path ($sim->{n})");
cmp_ok(scalar(keys %{$perf->{ip}}), '>', 1, 'at more than one IP (the skid\'s spread)');
is(fmt($perf->{ip}), fmt($sim->{ip}), 'per-IP sample counts equal to the sim path\'s')
	or diag "sim:  " . fmt($sim->{ip}) . "\nperf: " . fmt($perf->{ip});
cmp_ok(scalar(keys %{$perf->{stack}}), '>=', 2, 'samples with call chains up to main');
is(fmt($perf->{stack}), fmt($sim->{stack}), 'per (IP, callers up to main) counts equal to the sim path\'s')
	or diag "sim:  " . fmt($sim->{stack}) . "\nperf: " . fmt($perf->{stack});
cmp_ok(scalar(grep { m{/tests/record/hotspot\.c:[1-9]} } values %{$perf->{line}}), '>=', 3,
       'source lines: hotspot\'s addresses in hotspot.c');
# (the kernel's call chains go on past main into _start, which the sim
# path's unwinder leaves out: the addresses of the sim path's profile)
my %both = map { $_ => $perf->{line}{$_} // 'none' } keys %{$sim->{line}};
is(fmt(\%both), fmt($sim->{line}), '... each the line valgrind gives the sim path')
	or diag "sim:  " . fmt($sim->{line}) . "\nperf: " . fmt($perf->{line});

my ($r2, $t2) = run_cmd($rep, '-i', "$dir/perf.prof", '--folded');
is($r2, 0, 'nb_report --folded reads the perf path\'s profile');
my ($m3) = $t2 =~ /^(?:.+;)?main;miss3;chase (\d+)$/m;
my ($m1) = $t2 =~ /^(?:.+;)?main;miss1;chase (\d+)$/m;
ok(defined $m3 && abs($m3 - 72) <= 1, 'folded: main;miss3;chase 72 give or take the skid\'s one (' . ($m3 // '?') . ')');
ok(defined $m1 && abs($m1 - 24) <= 1, 'folded: main;miss1;chase 24 give or take one (' . ($m1 // '?') . ')');
($r2, $t2) = run_cmd($rep, '-i', "$dir/perf.prof", '--stdio');
like($t2, qr/^\s+\d+\s+[\d.]+%\s+chase\s+\(hotspot\)$/m, 'nb_report --stdio: chase named, in hotspot');

# ---- -F: the kernel's frequency mode ----
{
	my ($rc, $t) = run_cmd($nbsim, '--model=northwood', '--', $rec, '--backend=perf', '-F', '20000',
			       '-o', "$dir/freq.prof", '-e', 'PAPI_TOT_INS', '--', $hs, 'two');
	is($rc, 0, 'the perf path with -F 20000') or diag $t;
	my ($ns, $per, $cnt) = $t =~ /(\d+) samples of PAPI_TOT_INS \(every (\d+) on average, the kernel's frequency mode, IEBS through perf_event_open; it counted (\d+)\)/;
	ok(defined $ns && $ns >= 2, '... samples in the kernel\'s frequency mode (' . ($ns // '?') . ')');
	my ($pp) = `grep '^event' $dir/freq.prof` =~ /^event\t0\tPAPI_TOT_INS\t(\d+)\t/m;
	is($pp, $per, '... the profile\'s period is their average (' . ($per // '?') . ')');
	ok(defined $cnt && $ns && abs($ns * $per - $cnt) <= 0.2 * $cnt,
	   sprintf('... which times the samples is the count within a fifth (%s x %s against %s)',
		   $ns // '?', $per // '?', $cnt // '?'));
}

# ---- --follow: PERF_RECORD_FORK ----
{
	my ($rc, $t) = run_cmd($nbsim, '--model=northwood', '--', $rec, '--backend=perf', '--follow',
			       '-c', '10000', '-o', "$dir/fork.prof", '-e', 'PAPI_TOT_INS', '--',
			       "$ENV{NB_BUILD}/tests/stat/forkexec", '/bin/true');
	is($rc, 1, '--follow on forkexec: its exit status (the child\'s + 1)') or diag $t;
	like($t, qr/1 forked process followed \(PERF_RECORD_FORK\)/, '... one forked process, from its FORK record');
	my @sp = `grep '^space' $dir/fork.prof` =~ /^space\t\d+\t(\d+)$/mg;
	my %pid;
	$pid{$_}++ for @sp;
	is(join(' ', sort { $a <=> $b } values %pid), '1 2',
	   '... spaces: the parent\'s, the child\'s before and after its exec');
}

# ---- bad input ----
{
	my @prog = ('--', $hs, 'two');
	($rc, $t) = run_cmd($san_rec, '--backend=perf', '-e', 'PAPI_TOT_INS', '-o', "$dir/x.prof", @prog);
	is($rc, 121, '--backend=perf on a host that is not a NetBurst: 121');
	like($t, qr/--backend=perf: .*not a NetBurst/, '... the message says why');
	($rc, $t) = run_cmd($san_rec, '--backend=bogus', '-e', 'PAPI_TOT_INS', '-o', "$dir/x.prof", @prog);
	is($rc, 125, 'an unknown --backend: 125');
	like($t, qr/--backend takes auto, nbsim or perf, not 'bogus'/, '... named');
	($rc, $t) = run_cmd($nbsim, '--', $rec, '--backend=perf', '--precise', '-e', $EV, '-o', "$dir/x.prof", @prog);
	is($rc, 124, '--precise on the perf backend: 124');
	like($t, qr/cannot sample precisely on the perf backend: Linux's P4 driver offers no PEBS sampling/,
	     '... the reason: the kernel\'s P4 driver');
	($rc, $t) = run_cmd($nbsim, '--', $rec, '--backend=perf', '--model=prescott', '-e', $EV, '-o', "$dir/x.prof", @prog);
	is($rc, 121, '--model on the perf backend: 121');
	like($t, qr/need the nbsim backend/, '... the message says so');
	($rc, $t) = run_cmd($nbsim, '--', $rec, '--backend=perf', '--random-period', '-e', $EV, '-o', "$dir/x.prof", @prog);
	is($rc, 121, '--random-period on the perf backend: 121');
	like($t, qr/--random-period needs the nbsim backend/, '... the message says so');
	($rc, $t) = run_cmd($nbsim, '--', $rec, '--backend=perf', '-e', $EV, '-o', "$dir/y.prof", '--', "$dir/no_such_program");
	like($t, qr/IEBS \(the overflow interrupt's IP\): the perf backend samples no PEBS/,
	     'a replay metric without --no-precise: IEBS on the perf backend, and it says so');
	is($rc, 127, '... (then the missing program: 127)');
	ok(!-e "$dir/x.prof", 'no profile left by a refused run');
}

done_testing();

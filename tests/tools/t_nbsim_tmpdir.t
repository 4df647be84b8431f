#!/usr/bin/perl
# nbsim and nb_stat under a TMPDIR whose name has characters a shell or
# ld.so treats specially (space, tab, newline, quotes, $, ;, :, *, \):
# the same counts as under a plain TMPDIR, nbsim's preload library loaded
# (no "cannot be preloaded"), the emulated kernel there.  nbsim.sh once
# built its private VALGRIND_LIB under TMPDIR; valgrind puts that path
# into LD_PRELOAD, which ld.so splits at spaces and colons, so the preload
# libraries were dropped and a dynamic program's instructions changed
# (126,707 instead of 141,670 for true) with exit status 0.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use NbStat;

my $top = tempdir(CLEANUP => 1);
# a dynamic program (a static one gets no preload): the instructions ld.so
# runs depend on what it preloads
my $true = '/bin/true';
-x $true or BAIL_OUT("$true missing");
my $nbsim = $ENV{NBSIM} // die "NBSIM not set (run through make)\n";

# nb_stat -x , -e PAPI_TOT_INS -- true under TMPDIR=DIR (XDG_RUNTIME_DIR
# unset, so that TMPDIR is the directory nbsim.sh first looks at)
sub count_in {
	my ($dir) = @_;
	local $ENV{TMPDIR} = $dir;
	local $ENV{XDG_RUNTIME_DIR};
	delete $ENV{XDG_RUNTIME_DIR};
	my ($rc, $text) = run_nb_stat('-x', ',', '-e', 'PAPI_TOT_INS', '--', $true);
	my ($n) = $text =~ /^(\d+),PAPI_TOT_INS,/m;
	return ($rc, $n, $text);
}

# the emulated kernel is in the preload library (its wrapper of open):
# nbsim --perf-paranoid=1, and cat reads 1 from
# /proc/sys/kernel/perf_event_paranoid only with the preload loaded
sub kern_in {
	my ($dir) = @_;
	local $ENV{TMPDIR} = $dir;
	local $ENV{XDG_RUNTIME_DIR};
	delete $ENV{XDG_RUNTIME_DIR};
	my $pid = open(my $fh, '-|') // die;
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		exec $nbsim, '--perf-paranoid=1', '--', '/bin/cat', '/proc/sys/kernel/perf_event_paranoid'
			or exit 250;
	}
	local $/;
	my $t = <$fh> // '';
	close $fh;
	return $t;
}

# The reference for a TMPDIR of N characters: a relative path of N plain
# characters (a directory under the same working directory), which
# nbsim.sh passes over as it passes over the odd ones, so that it keeps
# its links in /tmp in both runs.  Both matter to the count: the length of
# that directory's path (in LD_PRELOAD) changes the instructions ld.so
# runs, and so does the environment's size (the stack's alignment:
# 140,244 instructions with PAD= set, 140,263 with PAD=xxxxxxx).
chdir $top or die;
END { chdir "/" }
my %ref;
sub reference {
	my ($len) = @_;
	return $ref{$len} if $ref{$len};
	my $rel = './' . ('p' x ($len - 2));
	mkdir $rel or die "mkdir $rel: $!";
	my ($rc, $n, $text) = count_in($rel);
	ok($rc == 0 && defined $n, "plain TMPDIR of $len characters: counted") or diag($text);
	is(kern_in($rel), "1\n", "plain TMPDIR of $len characters: the emulated perf_event_paranoid");
	return $ref{$len} = $n // -1;
}

my %odd = (
	'space'        => 'a b',
	'tab'          => "a\tb",
	'newline'      => "a\nb",
	'single quote' => "a'b",
	'double quote' => 'a"b',
	'dollar'       => 'a$HOME$(id)b',
	'semicolon'    => 'a;b',
	'colon'        => 'a:b',
	'glob'         => 'a*?[b',
	'backslash'    => 'a\\b',
	'leading dash' => '-a b',
);
for my $what (sort keys %odd) {
	my $dir = "$top/$odd{$what}";
	mkdir $dir or die "mkdir $what: $!";
	my ($rc, $n, $text) = count_in($dir);
	is($rc, 0, "TMPDIR with a $what: exit 0") or diag($text);
	is($n, reference(length $dir), "TMPDIR with a $what: PAPI_TOT_INS as under a plain TMPDIR")
		or diag($text);
	unlike($text, qr/cannot be preloaded|ERROR: ld\.so/, "TMPDIR with a $what: every preload loaded")
		or diag($text);
	is(kern_in($dir), "1\n", "TMPDIR with a $what: the emulated perf_event_paranoid");
	opendir(my $d, $dir) or die;
	my @left = grep { !/^\.\.?$/ && !/^nbsim-\d+$/ } readdir $d;
	is("@left", '', "TMPDIR with a $what: nb_stat left nothing in it");
}

done_testing();

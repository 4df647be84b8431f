#!/usr/bin/perl
# nb_stat's failures name their cause with a status of their own:
# - a missing valgrind (NBSIM_VALGRIND=/nonexistent) is nbsim's failure,
#   named, status 121; it was 127 "not found", PROGRAM's status;
# - one message per failure: no "killed by SIGKILL" after a launcher's own
#   message;
# - control bytes from the command line are written as \xHH, never to the
#   terminal as they are (an escape sequence in an argument drove it);
# - a 100,000-character event name is "event name too long" (124), not
#   "too many events";
# - -o FIFO with no reader yet: the program runs, and the FIFO is opened
#   when the counts are ready (nb_stat once blocked in open(2) before the
#   run, until a reader came).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use POSIX qw(mkfifo);
use NbStat;

my $dir = tempdir(CLEANUP => 1);
my @ev = ('-x', ',', '-e', 'PAPI_TOT_INS');

# valgrind missing
{
	local $ENV{NBSIM_VALGRIND} = '/nonexistent';
	my ($rc, $text) = run_nb_stat(@ev, '--', "$st/k_loop");
	is($rc, 121, 'valgrind missing: status 121 (counting failed), not PROGRAM\'s 126 or 127')
		or diag($text);
	like($text, qr/valgrind '\/nonexistent'.*not an executable file/, 'valgrind missing: says so, naming it')
		or diag($text);
	unlike($text, qr/k_loop: (program )?not found|no such file or program/,
	       'valgrind missing: PROGRAM is not said to be missing') or diag($text);
	unlike($text, qr/killed by SIG/, 'valgrind missing: no "killed by" message after the launcher\'s')
		or diag($text);
	is(scalar(() = $text =~ /^nb_stat: /mg), 1, 'valgrind missing: one message from nb_stat')
		or diag($text);
}
# a valgrind that fails (its own message, status 1): nb_stat adds one line,
# which says nbsim ended with 1, nothing about a kill
{
	open(my $fh, '>', "$dir/valgrind") or die;
	print $fh "#!/bin/sh\necho 'valgrind: broken' >&2\nexit 1\n";
	close $fh;
	chmod 0755, "$dir/valgrind";
	local $ENV{NBSIM_VALGRIND} = "$dir/valgrind";
	my ($rc, $text) = run_nb_stat(@ev, '--', "$st/k_loop");
	is($rc, 121, 'valgrind fails: status 121') or diag($text);
	like($text, qr/valgrind: broken\n.*nbsim ended with status 1/s,
	     'valgrind fails: its message, then nb_stat\'s naming the status') or diag($text);
	unlike($text, qr/killed by SIG/, 'valgrind fails: no "killed by" message') or diag($text);
}

# control bytes: escaped in every message that quotes the command line
{
	my $esc = "\e]0;owned\a\e[31m";
	for my $case (['an event name', '-e', "X${esc}Y", '--', "$st/k_loop"],
		      ['a program name', '-e', 'PAPI_TOT_INS', '--', "/nonexistent/${esc}"],
		      ['an -o file', '-o', "/nonexistent/${esc}", '--', "$st/k_loop"],
		      ['an option', "--${esc}", '--', "$st/k_loop"],
		      ['a model', "--model=${esc}", '--', "$st/k_loop"]) {
		my ($what, @args) = @$case;
		my ($rc, $text) = run_nb_stat(@args);
		ok($rc >= 121 && $rc <= 127, "control bytes in $what: refused ($rc)") or diag($text);
		unlike($text, qr/[\x00-\x08\x0b-\x1f\x7f]/, "control bytes in $what: none written")
			or diag(join(' ', map { sprintf '%02x', ord } split //, $text));
		like($text, qr/\\x1b/, "control bytes in $what: shown as \\x1b") or diag($text);
	}
	local $ENV{NBSIM_VALGRIND} = "/nonexistent/${esc}";
	my ($rc, $text) = run_nb_stat(@ev, '--', "$st/k_loop");
	unlike($text, qr/[\x00-\x08\x0b-\x1f\x7f]/, 'control bytes in NBSIM_VALGRIND: none written by nbsim')
		or diag($text);
}

# a very long event name
{
	my ($rc, $text) = run_nb_stat('-e', 'A' x 100000, '--', "$st/k_loop");
	is($rc, 124, 'a 100,000-character event name: status 124 (a bad event)');
	like($text, qr/event name too long \(100000 characters/, 'a 100,000-character event name: says so')
		or diag(substr($text, 0, 300));
	ok(length($text) < 2000, 'a 100,000-character event name: not echoed whole ('
	   . length($text) . ' bytes)');
	($rc, $text) = run_nb_stat('-e', join(',', ('PAPI_TOT_INS') x 65), '--', "$st/k_loop");
	like($text, qr/more than 64 events/, '65 events: "more than 64 events"') or diag($text);
}

# -o FIFO, its reader started by the program itself: nb_stat must run the
# program before it opens the FIFO (it blocked in open(2) before the run,
# and the two waited for each other for ever: the alarm ends that)
{
	my $fifo = "$dir/fifo";
	mkfifo($fifo, 0600) or die "mkfifo: $!";
	my $pid = open(my $fh, '-|') // die;
	if (!$pid) {
		alarm 120;
		open(STDERR, '>&', \*STDOUT);
		open(STDIN, '<', '/dev/null');
		exec $nb_stat, @ev, '-o', $fifo, '--', '/bin/sh', '-c',
			'cat "$1" > "$1.got" & exit 0', 'sh', $fifo or exit 250;
	}
	my $text = do { local $/; <$fh> } // '';
	close $fh;
	my $w = $?;
	is($w, 0, '-o FIFO with no reader before the run: the program ran, nb_stat exited 0')
		or diag("wait status $w: $text");
	my $got = '';
	for (1 .. ($w == 0 ? 3000 : 0)) {    # the program's cat: its end is not waited for
		my $g;
		last if open($g, '<', "$fifo.got") && ($got = do { local $/; <$g> } // '') =~ /\n/;
		select(undef, undef, undef, 0.1);
	}
	like($got, qr/^\d+,PAPI_TOT_INS,1,,$/m, '-o FIFO: the reader the program started got the counts');
}

done_testing();

#!/usr/bin/perl
# A program that execs (a wrapper: env, nice, a script's last 'exec'):
# its process's counts run from its first instruction to its exit across
# the exec, as a kernel's counters of the task do.  tests/stat/k_exec
# counts 2007 instructions up to its execve, then becomes k_loop_exit7
# (2004, exit 7).  nb_stat once lost the counts before the exec with
# --follow (2004), and without it failed with status 121 ("nbsim wrote
# no counts": the exec'd image ran outside nbsim and wrote none), then
# (helper branch) counted only up to the exec.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use JSON::PP;
use NbStat;

my @ev = ('-e', 'PAPI_TOT_INS,PAPI_BR_INS');

# --follow: both images counted, one process
{
	my ($rc, $text) = run_nb_stat('--json', '--follow', @ev, '--', "$st/k_exec", "$st/k_loop_exit7");
	is($rc, 7, '--follow: the exec\'d program\'s exit status');
	my $j = eval { decode_json($text =~ s/^[^{]*//sr) };
	ok($j, '--follow: JSON') or diag($text);
	my %c = map { $_->{event} => $_->{count} } @{ $j->{counts} // [] };
	is($c{PAPI_TOT_INS}, 2007 + 2004, '--follow: instructions before and after the exec');
	is($c{PAPI_BR_INS}, 1000 + 1000, '--follow: branches before and after the exec');
	is(scalar @{ $j->{processes} // [] }, 1, '--follow: one process');
	is($j->{processes}[0]{exit}, 7, '--follow: its exit status');
	unlike($text, qr/not followed/, '--follow: no warning');
}

# without --follow: the same (--follow is about children; the program's
# own execve is followed either way, sim/kernel/nb_progfile.c --nbsim-trace-forked)
{
	my ($rc, $text) = run_nb_stat('-x', ',', @ev, '--', "$st/k_exec", "$st/k_loop_exit7");
	is($rc, 7, 'no --follow: the exec\'d program\'s exit status, not 121') or diag($text);
	like($text, qr/^4011,PAPI_TOT_INS,1,,$/m, 'no --follow: instructions before and after the exec');
	like($text, qr/^2000,PAPI_BR_INS,1,,$/m, 'no --follow: branches before and after the exec');
	unlike($text, qr/not follow/, 'no --follow: no warning');
}

# an exec that fails: counted once, to the exit
{
	my ($rc, $text) = run_nb_stat('-x', ',', @ev, '--', "$st/k_exec", '/nonexistent/program');
	is($rc, 99, 'failed exec: the program goes on (exit 99)');
	like($text, qr/^2010,PAPI_TOT_INS,1,,$/m, 'failed exec: instructions counted once');
	unlike($text, qr/not follow/, 'failed exec: no warning');
}

done_testing();

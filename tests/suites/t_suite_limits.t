#!/usr/bin/perl
# The time limits of PAPI's suites (tests/lib/PapiSuite.pm run_one) judge
# the work a test does, not the machine's load (issue 15: omptough and
# overflow_allcounters, 73 s and 68 s alone, were killed at a 600 s
# wall-clock limit while a second make check ran).  A loaded machine
# stretches a test's wall-clock time but not its CPU time; a test that
# spends wall-clock time without CPU time stands for it here (a sleep), so
# no second build is needed to show the verdict does not depend on load:
#  - 3 s of wall-clock time with a 1 s CPU limit passes (a 1 s wall-clock
#    limit, the old rule, would have killed it);
#  - a CPU-bound loop is killed at its CPU limit, and says so;
#  - a program that waits for ever ends at the wall-clock backstop
#    (limit x factor), so a hang still fails instead of stopping make check.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use PapiSuite;

my $dir = '/tmp';

my ($st, $out, $secs) = PapiSuite::run_one($dir, ['sh', '-c', 'sleep 3; echo PASSED'], 1, 6);
ok($st == 0 && $out =~ /PASSED/ && $secs >= 3,
   sprintf('3 s of wall-clock time under a 1 s CPU limit passes (status %d, %.1f s)', $st, $secs))
	or diag($out);

($st, $out, $secs) = PapiSuite::run_one($dir, ['sh', '-c', 'while :; do :; done'], 1, 30);
ok($st != 0 && $st != -1 && $out =~ /killed after 1s of CPU time/,
   sprintf('a CPU-bound loop is killed at its 1 s CPU limit (status %d, %.1f s)', $st, $secs))
	or diag($out);

($st, $out, $secs) = PapiSuite::run_one($dir, ['sleep', '100'], 1, 2);
ok($st == -1 && $out =~ /wall-clock time \(backstop\)/ && $secs < 10,
   sprintf('a program waiting for ever ends at the 2 s wall-clock backstop (status %d, %.1f s)',
	   $st, $secs))
	or diag($out);
done_testing();

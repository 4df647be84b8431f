#!/usr/bin/perl
# Error codes and messages for bad or absent names, for every spelling and
# entry point (README "Native events"), on Prescott (no L3) and on the
# Xeon MP (ctests/name_codes.c run under both models, one TAP stream).
use strict;
use warnings;

my $n = 0;
my $fail = 0;
for my $model (qw(prescott xeonmp)) {
	my @out = `"$ENV{NBSIM}" --model=$model -- "$ENV{NB_BUILD}/tests/name_codes" $model 2>&1`;
	my $st = $?;
	my $plan;
	for (@out) {
		next if /^==\d+==/;
		if (/^1\.\.(\d+)/) { $plan = $1; next; }
		if (s/^(not )?ok \d+/($1 \/\/ '') . 'ok ' . ++$n/e) {
			s/ - / - $model: /;
			$fail++ if /^not ok/;
		}
		print;
	}
	unless (defined $plan && $st == 0 || $fail) {
		$n++;
		print "not ok $n - $model: the test program finished (status $st, plan "
			. ($plan // 'none') . ")\n";
	}
}
print "1..$n\n";

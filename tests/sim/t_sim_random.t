#!/usr/bin/perl
# The kernel's random bytes on the simulated machine (nbsim
# --nbsim-random=seeded, the default; sim/kernel/nb_entropy.c;
# ctests/sim_random.c): getrandom, reads of /dev/urandom (also through a
# dup) and /dev/random give the same bytes in two runs, and beside two
# CPU-bound processes; they differ from one draw to the next, between a
# fork's child and its parent, and with another --nbsim-seed;
# --nbsim-random=host gives the host's (two runs differ: a 2^-128 chance
# each that they would not).  The 16 bytes at auxv AT_RANDOM likewise
# (glibc's stack and pointer guards; ld.so's strcspn read them past
# LD_PRELOAD's end as table indexes, and the host's bytes moved the
# clock).  And what it is for: Python's string hashes,
# seeded from getrandom, are the same in two runs.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use BusyHost;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $prog = "$ENV{NB_BUILD}/tests/sim_random";
-x $prog or BAIL_OUT("$prog not built");

sub run {
	my $out = `timeout -k 10 300 "$nbsim" @_ -- "$prog" 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	return ($? >> 8, \%v, $out);
}
my @keys = qw(getrandom getrandom2 urandom urandom_dup random child after_fork at_random);
sub all { my $v = shift; return join(' ', map { $v->{$_} // '?' } @keys) }

my ($rc, $a, $out) = run();
is($rc, 0, 'runs') or diag($out);
like($a->{$_} // '', qr/^[0-9a-f]{32}$/, "$_: 16 bytes") for @keys;
my %seen;
$seen{$a->{$_} // ''}++ for @keys;
is(scalar(keys %seen), scalar(@keys), 'every draw differs from the others (child and parent too)');
my (undef, $b) = run();
is(all($b), all($a), 'a second run draws the same bytes');
{
	my (undef, $c) = beside_busy_loops(sub { run() });
	is(all($c), all($a), 'beside two CPU-bound processes too');
}
my (undef, $s) = run('--nbsim-seed=7');
isnt($s->{getrandom}, $a->{getrandom}, '--nbsim-seed=7 draws other bytes');
isnt($s->{at_random}, $a->{at_random}, '... and other AT_RANDOM bytes');
my (undef, $h1) = run('--nbsim-random=host');
my (undef, $h2) = run('--nbsim-random=host');
isnt($h1->{getrandom}, $h2->{getrandom}, '--nbsim-random=host: the host\'s bytes (two runs differ)');
isnt($h1->{at_random}, $h2->{at_random}, '... and the host\'s AT_RANDOM bytes');
my ($brc, undef, $bout) = run('--nbsim-random=sometimes');
ok($brc != 0 && $bout =~ /--nbsim-random has no value 'sometimes' \(values: seeded, host\)/,
   'a bad --nbsim-random is refused with the values');

SKIP: {
	skip('no /usr/bin/python3', 1) unless -x '/usr/bin/python3';
	my @h = map { scalar `timeout -k 10 300 "$nbsim" -- /usr/bin/python3 -c "print(hash('nbsim'))" 2>&1` } 1 .. 2;
	ok($h[0] =~ /^-?\d+$/ && $h[0] eq $h[1], "Python's string hash is the same in two runs ($h[0])");
}
done_testing();

#!/usr/bin/perl
# t_events_tsti.t - TS/TI (thread-specific / thread-independent) of every
# mask: native_events/events.txt and the generated tables against the
# facts in native_events/tsti.txt (seed 003's definitions and the SDM's
# "Event Mask Qualification for Logical Processors" table it points to,
# with the documented exceptions), and against Linux's .shared.
use strict;
use warnings;
use Test::More;
use File::Basename qw(dirname);
use Cwd qw(abs_path);
require(dirname(abs_path(__FILE__)) . '/t_events_lib.pl');
our ($NE);

my $t = nb_load();
my (%want, %exc, %src);
open my $fh, '<', "$NE/tsti.txt" or die "$NE/tsti.txt: $!\n";
while (<$fh>) {
	next if /^\s*(#|$)/;
	if (/^exception\s+(\S+)\s+(TS|TI)\s+(\S.*)$/) {
		$want{$1} = $2;
		$exc{$1} = $3;
	} elsif (/^(\S+)\s+(TS|TI)\s+(\[.*)$/) {
		$want{$1} = $2;
		$src{$1} = $3;
	} else {
		die "tsti.txt:$.: expected 'EVENT TS|TI [SOURCE]' or 'exception EVENT TS|TI reason'\n";
	}
}
close $fh;

# Every event of the model has a row, every row an event.
for my $e (@{$t->{order}}) {
	ok(exists $want{$e}, "$e has a TS/TI row in tsti.txt");
}
for my $e (sort keys %want) {
	ok(exists $t->{events}{$e}, "tsti.txt row $e is an event of the model");
}

# Every mask of the generated tables has its event's classification.
my ($n, $bad) = (0, 0);
for my $e (@{$t->{order}}) {
	next unless exists $want{$e};
	for my $m (@{$t->{events}{$e}{masks}}) {
		$n++;
		next if $m->{ts} eq $want{$e};
		$bad++;
		diag("$e:$m->{name} is $m->{ts}, the facts say $want{$e}");
	}
}
is($bad, 0, "all $n masks agree with tsti.txt (SDM table, seed 003 definitions)");

# events.txt itself (the source the generator reads), mask by mask.
my ($cur, $src_bad, $src_n) = (undef, 0, 0);
open $fh, '<', "$NE/events.txt" or die;
while (<$fh>) {
	$cur = $1 if /^event\s+(\S+)/;
	next unless /^\s+mask\s+(\S+)\s+\d+\s+(TS|TI)\s/ && defined $cur;
	$src_n++;
	if (($want{$cur} // '') ne $2) {
		$src_bad++;
		diag("events.txt:$.: $cur:$1 is $2");
	}
}
close $fh;
is($src_bad, 0, "events.txt: all $src_n mask lines agree");

# TI rows marked [LNX] are the events Linux shares; the exceptions are
# exactly the events kernel_p4.txt lists as 'kexception shared'.
my $kx = nb_exceptions("$NE/kernel_p4.txt", 'kexception');
for my $e (sort keys %exc) {
	ok(exists $kx->{"shared $e"}, "exception $e is also a documented kernel difference ($exc{$e})");
}
for my $e (sort keys %src) {
	next unless $want{$e} eq 'TI';
	like($src{$e}, qr/\[LNX\]/, "$e: TI in the SDM and shared in Linux");
}
done_testing();

#!/usr/bin/perl
# gen_coverage.pl - the Events table of sim/README.md from sim/coverage.txt.
#
#   perl sim/gen_coverage.pl --write   rewrite the table in sim/README.md
#   perl sim/gen_coverage.pl --check   exit 1 if the README table is stale
#   perl sim/gen_coverage.pl --list    print "EVENT:MASK STATUS" per mask
#   perl sim/gen_coverage.pl --totals  print the totals line
#
# Checks coverage.txt against native_events/events.txt: every event has a
# line, every mask is covered exactly once, names and statuses are known.
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $SIM = dirname(abs_path(__FILE__));
my $EVENTS = "$SIM/../native_events/events.txt";
my $COVERAGE = "$SIM/coverage.txt";
my $README = "$SIM/README.md";
my $BEGIN = '<!-- begin coverage table: generated from coverage.txt by gen_coverage.pl, do not edit -->';
my $END = '<!-- end coverage table -->';
my %STATUS = (exact => 'exact', zero => 'exact (0 by construction)', modelled => 'modelled',
	      'not-modelled' => 'not modelled');

my $mode = shift // '--check';
$EVENTS = shift if @ARGV;
$COVERAGE = shift if @ARGV;
$README = shift if @ARGV;

# events.txt: event order and mask names
my (@events, %masks);
open my $ef, '<', $EVENTS or die "$EVENTS: $!\n";
my $cur;
while (<$ef>) {
	if (/^event\s+(\S+)/) {
		$cur = $1;
		push @events, $cur;
		$masks{$cur} = [];
	} elsif (/^\s+mask\s+(\S+)\s+\d+/ && defined $cur) {
		push @{$masks{$cur}}, $1;
	}
}
close $ef;

# coverage.txt
my (@err, %lines, %status);
open my $cf, '<', $COVERAGE or die "$COVERAGE: $!\n";
while (<$cf>) {
	chomp;
	next if /^\s*(#|$)/;
	my ($ev, $ms, $st, $how) = /^(\S+)\s+(\S+)\s+(\S+)\s+(.+?)\s*$/
		or do { push @err, "$COVERAGE:$.: expected EVENT MASKS STATUS HOW"; next };
	if (!$masks{$ev}) { push @err, "$COVERAGE:$.: unknown event $ev"; next }
	if (!$STATUS{$st}) { push @err, "$COVERAGE:$.: unknown status $st (exact, zero, modelled, not-modelled)"; next }
	push @{$lines{$ev}}, { masks => $ms, status => $st, how => $how, line => $. };
}
close $cf;

for my $ev (@events) {
	if (!$lines{$ev}) {
		push @err, "$COVERAGE: no line for event $ev";
		next;
	}
	my %known = map { $_ => 1 } @{$masks{$ev}};
	my $star;
	for my $l (@{$lines{$ev}}) {
		if ($l->{masks} eq '*') {
			push @err, "$COVERAGE:$l->{line}: second * line for $ev" if $star;
			$star = $l;
			next;
		}
		my @m = split /,/, $l->{masks};
		$l->{list} = \@m;
		for my $m (@m) {
			if (!$known{$m}) { push @err, "$COVERAGE:$l->{line}: $ev has no mask $m"; next }
			push @err, "$COVERAGE:$l->{line}: $ev:$m covered twice" if $status{"$ev:$m"};
			$status{"$ev:$m"} = $l->{status};
		}
	}
	my @rest = grep { !$status{"$ev:$_"} } @{$masks{$ev}};
	if ($star) {
		push @err, "$COVERAGE:$star->{line}: * for $ev covers no mask" unless @rest;
		$star->{list} = \@rest;
		$status{"$ev:$_"} = $star->{status} for @rest;
	} elsif (@rest) {
		push @err, "$COVERAGE: $ev:$_ has no line" for @rest;
	}
}
if (@err) {
	print STDERR "$_\n" for @err;
	exit 2;
}

# totals: per mask, and per event (exact: all masks exact or zero; not
# modelled: no mask produced; modelled: the others)
my (%mt, %et);
for my $ev (@events) {
	my %s;
	for my $m (@{$masks{$ev}}) {
		$mt{$status{"$ev:$m"}}++;
		$s{$status{"$ev:$m"}}++;
	}
	my $n = @{$masks{$ev}};
	$et{($s{exact} // 0) + ($s{zero} // 0) == $n ? 'exact'
	    : ($s{'not-modelled'} // 0) == $n ? 'not-modelled' : 'modelled'}++;
}
my $totals = sprintf "Totals: %d events: %d exact, %d modelled, %d not modelled; %d masks: %d exact " .
	"(%d of them 0 by construction), %d modelled, %d not modelled.",
	scalar @events, $et{exact} // 0, $et{modelled} // 0, $et{'not-modelled'} // 0,
	scalar keys %status, ($mt{exact} // 0) + ($mt{zero} // 0), $mt{zero} // 0,
	$mt{modelled} // 0, $mt{'not-modelled'} // 0;

if ($mode eq '--list') {
	for my $ev (@events) {
		print "$ev:$_ $status{\"$ev:$_\"}\n" for @{$masks{$ev}};
	}
	exit 0;
}
if ($mode eq '--totals') {
	print "$totals\n";
	exit 0;
}

my @t = ($BEGIN, '', '| event | masks | status | how |', '| --- | --- | --- | --- |');
for my $ev (@events) {
	for my $l (sort { $a->{line} <=> $b->{line} } @{$lines{$ev}}) {
		my $ms = @{$l->{list}} == @{$masks{$ev}} ? 'all' : join(', ', @{$l->{list}});
		push @t, "| `$ev` | $ms | $STATUS{$l->{status}} | $l->{how} |";
	}
}
push @t, '', $totals, '', $END;
my $table = join("\n", @t) . "\n";

open my $rf, '<', $README or die "$README: $!\n";
my $readme = do { local $/; <$rf> };
close $rf;
my ($pre, $old, $post) = $readme =~ /\A(.*?^)(\Q$BEGIN\E\n.*?^\Q$END\E\n)(.*)\z/ms
	or die "$README: no coverage table markers ($BEGIN ... $END)\n";
if ($mode eq '--check') {
	if ($old ne $table) {
		print STDERR "$README: the Events table is out of date: run perl sim/gen_coverage.pl --write\n";
		exit 1;
	}
	exit 0;
}
if ($mode eq '--write') {
	exit 0 if $old eq $table;
	open my $wf, '>', "$README.tmp" or die "$README.tmp: $!\n";
	print $wf $pre, $table, $post;
	close $wf or die "$README.tmp: $!\n";
	rename "$README.tmp", $README or die "$README: $!\n";
	exit 0;
}
die "usage: $0 --write|--check|--list|--totals [events.txt coverage.txt README.md]\n";

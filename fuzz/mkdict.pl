#!/usr/bin/perl
# mkdict.pl DATADIR - a libFuzzer dictionary of the name grammar's words:
# event, mask, virtual-mask, metric names and aliases from the data files,
# and the modifiers.
use strict;
use warnings;
my $dir = shift // 'native_events';
my %w;
for my $f ("$dir/events.txt", "$dir/metrics.txt") {
	open my $fh, '<', $f or die "$f: $!";
	while (<$fh>) {
		next if /^\s*#/;
		$w{$1} = 1 if /^\s*(?:event|metric|alias|mask|vmask)\s+(\S+)/;
		$w{$1} = 1 if /\balias=(\S+)/;
	}
}
$w{$_} = 1 for qw(p4netburst::: : = u k thr= cmp= cmpl edge thread= any single both none precise);
print qq{"$_"\n} for sort keys %w;

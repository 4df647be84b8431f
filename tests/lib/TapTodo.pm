# TapTodo.pm - run a TAP-producing program and pass its output through,
# marking the listed test numbers "# TODO reason" (a known deviation on one
# backend, with its reason), and a bail-out matching a pattern as one TODO
# test (a set the backend cannot count at all).  An unexpected pass shows
# as such ("ok ... # TODO").
package TapTodo;
use strict;
use warnings;

# run(cmd => [...], todo => { N => reason }, bail => [qr/.../, reason])
sub run {
	my (%a) = @_;
	my $pid = open(my $fh, '-|') // die "fork: $!\n";
	if (!$pid) {
		open STDERR, '>&', \*STDOUT;
		exec @{$a{cmd}} or die "exec: $!\n";
	}
	my ($plan, $n) = ('', 0);
	while (my $l = <$fh>) {
		if ($l =~ /^1\.\.\d+$/) {        # the plan goes last (a bail-out replaces it)
			$plan = $l;
			next;
		}
		if ($l =~ /^Bail out!/ && $a{bail} && $l =~ $a{bail}[0]) {
			chomp $l;
			$n++;
			print "not ok $n - $l # TODO $a{bail}[1]\n1..$n\n";
			close $fh;
			return;
		}
		$n++ if $l =~ /^(not ok|ok) \d+/;
		if ($l =~ /^(not ok|ok) (\d+)/ && exists $a{todo}{$2}) {
			chomp $l;
			$l .= " # TODO $a{todo}{$2}\n";
		}
		print $l;
	}
	close $fh;
	print $plan;
	exit($? >> 8 ? 1 : 0) if $? && !$plan;
}

1;

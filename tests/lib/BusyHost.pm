# BusyHost.pm - run something beside two CPU-bound processes (a loaded
# host: 2 CPUs here), for the checks that simulated figures do not move
# with the host's load.
package BusyHost;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT = qw(beside_busy_loops);

# beside_busy_loops(CODE) -> what CODE returns (list context), with two
# busy loops running from before CODE starts until it has returned
sub beside_busy_loops {
	my ($code) = @_;
	my @burn;
	for (1 .. 2) {
		my $p = fork() // die "fork: $!";
		if (!$p) { my $x = 0; $x++ while 1; exit 0 }
		push @burn, $p;
	}
	my @r = eval { $code->() };
	my $err = $@;
	kill 'KILL', @burn;
	waitpid($_, 0) for @burn;
	die $err if $err;
	return @r;
}

1;

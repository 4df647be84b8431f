# NbStat.pm - what the nb_stat tests share: where nb_stat and its test
# programs are, and running it with its stderr and stdout caught.
package NbStat;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT = qw($nb_stat $st run_nb_stat);

our $nb_stat = ($ENV{NB_UTILS_BIN} // die "NB_UTILS_BIN not set (run through make)\n") . '/nb_stat';
our $st = "$ENV{NB_BUILD}/tests/stat";
-x $nb_stat or die "$nb_stat not built\n";

# run_nb_stat(ARGS...) -> (exit status, stdout and stderr together);
# { stdin => FILE } as the first argument feeds FILE (else /dev/null)
sub run_nb_stat {
	my $o = ref $_[0] eq 'HASH' ? shift : {};
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		open(STDIN, '<', $o->{stdin} // '/dev/null') or exit 250;
		exec $nb_stat, @_ or exit 250;
	}
	local $/;
	my $text = <$fh> // '';
	close $fh;
	return ($? >> 8, $text);
}

1;

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
# a hash as the first argument says what standard input is: { stdin =>
# FILE } (from offset { skip => N }), { pipe => DATA } (a pipe a writer
# fills), else /dev/null
sub run_nb_stat {
	my $o = ref $_[0] eq 'HASH' ? shift : {};
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		if (defined $o->{pipe}) {
			pipe(my $r, my $w) or exit 250;
			my $writer = fork() // exit 250;
			if (!$writer) {
				close $r;
				print $w $o->{pipe};
				exit 0;
			}
			close $w;
			open(STDIN, '<&', $r) or exit 250;
		} else {
			open(STDIN, '<', $o->{stdin} // '/dev/null') or exit 250;
			sysseek(STDIN, $o->{skip}, 0) or exit 250 if $o->{skip};
		}
		exec $nb_stat, @_ or exit 250;
	}
	local $/;
	my $text = <$fh> // '';
	close $fh;
	return ($? >> 8, $text);
}

1;

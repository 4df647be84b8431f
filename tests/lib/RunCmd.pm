# RunCmd.pm - running a command as the tests of the tools do: its exit
# status and its standard output and error together.
package RunCmd;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT = qw(run_cmd);

# run_cmd(CMD, ARGS...) -> (exit status, stdout and stderr); 250 when the
# command cannot be started
sub run_cmd {
	my (@cmd) = @_;
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		exec @cmd or exit 250;
	}
	local $/;
	my $text = <$fh> // '';
	close $fh;
	return ($? >> 8, $text);
}

1;

# SimGuest.pm - a guest helper program of tests/sim (NAME.c) built for a
# test that runs it under nbsim: compiled once into a temporary directory,
# the test bailing out when it cannot be.
package SimGuest;
use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);
use Test::More;
our @EXPORT = qw(guest_build);

# guest_build(NAME, CFLAGS...) -> the path of tests/sim/NAME.c built with
# cc -O2 CFLAGS (NB_SRC: the source tree, set by make check)
sub guest_build {
	my ($name, @flags) = @_;
	my $src = $ENV{NB_SRC} or BAIL_OUT('NB_SRC not set');
	my $prog = tempdir(CLEANUP => 1) . "/$name";
	system('cc', '-O2', @flags, '-o', $prog, "$src/tests/sim/$name.c") == 0
		or BAIL_OUT("cannot build tests/sim/$name.c" . (@flags ? " with @flags" : ''));
	return $prog;
}

1;

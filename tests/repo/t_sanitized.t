#!/usr/bin/perl
# Issue 15, sanitizers: make check runs the scheduler tests, nbsim's unit
# tests, the nb_* tools and the component's unit tests built with
# AddressSanitizer and UBSan (once only three units were).  This checks that
# the binaries those tests run carry both runtimes, so a build rule that
# drops the flags fails here rather than silently testing less:
#  - the component's units (evsel_unit, backend_unit) and the fuzz corpus
#    replay (Makefile, $(SAN));
#  - the tools t_utils_tools.t and t_nb_stat.t run ($NB_UTILS_BIN, which
#    make check points at build/tests/san-utils);
#  - every nbsim unit test t_sim_san.t runs (build/sim/san);
#  - the scheduler tests' programs (tests/lib/sched_build.sh nb_cc): a probe
#    built with it has both runtimes and dies with a sanitizer report on a
#    one-byte heap overflow and a UBSan report on a signed overflow.
# Control: the plain tools in build/utils carry neither.
use strict;
use warnings;
use Test::More;

my $src = $ENV{NB_SRC} or BAIL_OUT('NB_SRC not set');
my $build = $ENV{NB_BUILD} or BAIL_OUT('NB_BUILD not set');
my $utils = $ENV{NB_UTILS_BIN} or BAIL_OUT('NB_UTILS_BIN not set (run through make check)');
my $simbin = $ENV{NBSIM_TESTBIN} or BAIL_OUT('NBSIM_TESTBIN not set');

sub runtimes {
	my ($bin) = @_;
	my $syms = `nm -D --undefined-only "$bin" 2>/dev/null; nm "$bin" 2>/dev/null`;
	return ($syms =~ /\b__asan_init\b/ ? 1 : 0, $syms =~ /\b__ubsan_handle_\w+/ ? 1 : 0);
}
sub sanitized {
	my ($bin, $what) = @_;
	my ($a, $u) = -x $bin ? runtimes($bin) : (0, 0);
	ok($a && $u, "$what: " . ($bin =~ s{^\Q$build\E/}{build/}r) . " has ASan and UBSan")
		or diag(-x $bin ? "asan $a ubsan $u" : 'missing');
}

like($utils, qr{/san-utils/?$}, "make check runs the tools from san-utils ($utils)");
sanitized("$build/tests/$_", 'component unit') for qw(evsel_unit backend_unit);
sanitized("$build/tests/fuzz_replay", 'fuzz corpus replay');
sanitized("$utils/$_", 'tool') for qw(nb_schedule nb_encode nb_decode nb_stat);
# nbsim's native unit tests (sim/tests/unit/t_*.c, sim/Makefile
# TESTS_NATIVE; the guest tests run under valgrind, where ASan cannot)
my @native = map { m{/(t_\w+)\.c$} ? $1 : () } glob("$src/sim/tests/unit/t_*.c");
cmp_ok(scalar @native, '>=', 16, scalar(@native) . ' native nbsim unit tests in sim/tests/unit');
my @bad = grep { my ($a, $u) = -x "$simbin/../san/$_" ? runtimes("$simbin/../san/$_") : (0, 0);
		 !($a && $u) } @native;
ok(!@bad, 'every native nbsim unit test has its ASan/UBSan copy in build/sim/san')
	or diag("not sanitized: @bad");

# The scheduler tests' compiler (nb_cc): a probe.
my $probe = "$build/tests/t_sanitized_probe.c";
open my $fh, '>', $probe or die "$probe: $!";
print $fh <<'C';
#include <stdlib.h>
#include <limits.h>
int main(int argc, char **argv)
{
	(void)argv;
	if (argc == 2) {                        /* heap overflow by one */
		volatile char *p = malloc(8);   /* volatile: -O1 keeps it */
		p[6 + argc] = 1;                /* p[8] */
		free((void *)p);
	} else if (argc == 3) {                 /* signed overflow */
		volatile int i = INT_MAX;
		return i + argc > 0;
	}
	return 0;
}
C
close $fh;
my $st = system('sh', '-c', '. "$0"; nb_cc t_sanitized_probe "$1"',
		"$src/tests/lib/sched_build.sh", $probe);
is($st, 0, 'a probe builds with the scheduler tests\' flags');
my $pb = "$build/tests/t_sanitized_probe";
sanitized($pb, "scheduler tests' build");
my $o = `"$pb" 2>&1`;
is($? >> 8, 0, 'the probe runs clean without a defect');
$o = `"$pb" heap 2>&1`;
# UBSan's object-size check reports it first at -O1; ASan's redzone otherwise
ok($? != 0 && $o =~ /AddressSanitizer: heap-buffer-overflow|runtime error: store to address .* insufficient space/,
   'a heap overflow by one byte dies with a sanitizer report');
$o = `"$pb" signed int 2>&1`;
ok($? != 0 && $o =~ /runtime error: signed integer overflow/, 'a signed overflow dies with a UBSan report');
unlink $probe, $pb, "$pb.log";

# Control: the plain build has neither runtime.
my ($a, $u) = runtimes("$build/utils/nb_schedule");
ok(-x "$build/utils/nb_schedule" && !$a && !$u, 'control: build/utils/nb_schedule has neither');
done_testing();

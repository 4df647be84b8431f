#!/usr/bin/perl
# Issue 15, Security: no format string is ever data, and the component reads
# its environment only through secure_getenv.
#
# 1. Every C file of the component (components/p4netburst), nbsim (sim/, the
#    valgrind tool and its preload) and the tools (utils/) compiles under
#    -Wformat=2 -Werror=format-nonliteral -Werror=format-security: a
#    printf-family call (libc's or valgrind's VG_(printf) family, both
#    declared with the format attribute) whose format is not a literal
#    fails here, and so does a printf-like wrapper without the format
#    attribute (-Wsuggest-attribute=format: a va_list wrapper's callers
#    would go unchecked).  P4NETBURST_MSR_DEV was once an snprintf format;
#    the scheduler's explanation builder took its format as a parameter;
#    nbsim's --nbsim-counts writer put() had no format attribute.
# 2. No getenv( in the component: P4NETBURST_BACKEND and
#    P4NETBURST_MSR_DEV are honoured by a setuid or setgid program through
#    no path (backend_cpuid.c read P4NETBURST_BACKEND with getenv while
#    p4netburst.c used secure_getenv).  The tools and nbsim are never
#    privileged; their getenv uses (PATH, TMPDIR, NBSIM, MPI ranks,
#    NB_REPORT_ASSETS: a folder read, never a format) are
#    listed here so that a new one is looked at.
# The values of P4NETBURST_MSR_DEV (%n, %s, %x, no %d, two %d, relative,
# too long) are tested in tests/unit/backend_unit.c.
use strict;
use warnings;
use Test::More;

my $src = $ENV{NB_SRC} or BAIL_OUT('NB_SRC not set');
my $gen = $ENV{NB_GEN} or BAIL_OUT('NB_GEN not set');
my $papi = $ENV{NB_PAPI_SRC} or BAIL_OUT('NB_PAPI_SRC not set');
my $cc = $ENV{CC} // 'cc';
my $warn = '-Wall -Wextra -Wformat=2 -Werror=format-nonliteral -Werror=format-security ' .
	   '-Werror=format -Wsuggest-attribute=format';
my $inc = "-I$src/native_events -I$gen -I$src/components/p4netburst -I$src/sim -I$src/utils";
my $vg = '-DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 -DVGPV_amd64_linux_vanilla=1 ' .
	 '-isystem /usr/include/valgrind';
my $papi_inc = "-I$papi -I$papi/libpfm4/include -D_GNU_SOURCE -D_REENTRANT -DPAPI_NUM_COMP=2 -DUSE_COMPILER_TLS -DPAPI_NO_MEMORY_MANAGEMENT -DOSLOCK='\"linux-lock.h\"' " .
	       "-DOSCONTEXT='\"linux-context.h\"'";

my @files;
push @files, map { [$_, "-std=gnu11 $papi_inc"] } glob("$src/components/p4netburst/*.c");
push @files, map { [$_, "-std=c11 $vg"] } grep { !/vg_preload/ } glob("$src/sim/{pmu,cpu,timing,tool,kernel}/*.c");
push @files, map { [$_, "-std=gnu11 $vg"] } glob("$src/sim/kernel/vg_preload*.c");
push @files, map { [$_, "-std=gnu11"] } glob("$src/utils/*.c");
cmp_ok(scalar @files, '>=', 50, scalar(@files) . ' C files to audit');
for my $f (@files) {
	my ($file, $flags) = @$f;
	(my $rel = $file) =~ s{^\Q$src\E/}{};
	my $out = `$cc $flags $warn $inc -fsyntax-only $file 2>&1`;
	my $st = $?;
	my @fmt = grep { /-Wformat|-Wsuggest-attribute=format/ } split /\n/, $out;
	ok($st == 0 && !@fmt, "$rel: every format is a literal the compiler checks")
		or diag($st ? $out : join("\n", @fmt));
}

# A mutation that must fail: the audit catches a variable format.
{
	my $probe = "/tmp/t_format_audit.$$.c";
	open my $fh, '>', $probe or die "$probe: $!";
	print $fh "#include <stdio.h>\n#include <stdlib.h>\n" .
		  "int main(void) { char b[64]; const char *f = getenv(\"X\");\n" .
		  "  if (f) snprintf(b, sizeof b, f, 3); return 0; }\n";
	close $fh;
	my $out = `$cc -std=gnu11 $warn -fsyntax-only $probe 2>&1`;
	unlink $probe;
	ok($? != 0 && $out =~ /format-nonliteral|format not a string literal/,
	   'control: a getenv value used as a format is refused by these flags');
}

# 2. getenv in the component, and the tools' list.
my %allowed = (
	'utils/nb_stat.c' => qr/getenv\(vars\[i\]\)/,
	'utils/nb_prog.c' => qr/getenv\((?:vars\[i\]|"PATH"|"NBSIM")\)/,
	'utils/nb_stat_run.c' => qr/getenv\("TMPDIR"\)/,
	'utils/nb_report_html.c' => qr/getenv\("NB_REPORT_ASSETS"\)/,
);
for my $f (glob("$src/components/p4netburst/*.[ch]"), glob("$src/sim/*.[ch]"), glob("$src/sim/{pmu,cpu,timing,tool,kernel}/*.[ch]"),
	   glob("$src/utils/*.[ch]")) {
	(my $rel = $f) =~ s{^\Q$src\E/}{};
	open my $fh, '<', $f or die "$f: $!";
	my @bad;
	while (my $l = <$fh>) {
		next unless $l =~ /(?<![\w_])getenv\s*\(/;
		next if $l =~ m{^\s*(?:/?\*|//)};     # comments
		next if $allowed{$rel} && $l =~ $allowed{$rel};
		push @bad, "$.: $l";
	}
	ok(!@bad, "$rel: no getenv beyond the listed ones" .
	   ($rel =~ /^components/ ? ' (the component: secure_getenv only)' : ''))
		or diag(@bad);
}
done_testing();

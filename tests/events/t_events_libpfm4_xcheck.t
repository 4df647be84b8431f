#!/usr/bin/perl
# t_events_libpfm4_xcheck.t - cross-check our NetBurst event model against
# libpfm4 4.13: names, event select, ESCR select and mask bits through the
# real library (Debian libpfm4, -lpfm, PMUs netburst and netburst_p forced
# with LIBPFM_FORCE_PMU); allowed ESCRs (not exposed by the API) from
# libpfm4's lib/events/intel_netburst_events.h ($LIBPFM4_SRC, default
# /tmp/papisrc/libpfm-4.13.0).  Known, reasoned differences:
# native_events/libpfm4_exceptions.txt.
#   prove tests/events/t_events_libpfm4_xcheck.t   (after make -C native_events, or NBGEN=dir)
use strict;
use warnings;
use Test::More;
use File::Basename qw(dirname);
use Cwd qw(abs_path);
require(dirname(abs_path(__FILE__)) . '/t_events_lib.pl');
our ($ROOT, $NE, $TMP);

my $t = nb_load();
my $E = $t->{events};
my %byname;   # our events by name and alias
for my $e (values %$E) { $byname{$e->{name}} = $e; $byname{$e->{alias}} = $e if $e->{alias}; }
my $X = nb_exceptions("$NE/libpfm4_exceptions.txt");
my %used;
my ($matches, $exc) = (0, 0);

# A difference: passes if listed in the exceptions file.
sub differ {
	my ($key, $subj, $what) = @_;
	if (exists $X->{"$key $subj"}) {
		$used{"$key $subj"} = 1;
		$exc++;
		pass("$subj: $what -- known exception: $X->{\"$key $subj\"}");
	} else {
		fail("$subj: $what (not in libpfm4_exceptions.txt as '$key $subj')");
	}
}
sub same { $matches++; pass($_[0]); }

# --- the library
my $dump = "$TMP/pfmdump";
system('gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', "$ROOT/tests/events/t_events_pfm_dump.c", '-o', $dump, '-lpfm') == 0
	or BAIL_OUT('cannot build t_events_pfm_dump.c against -lpfm (apt-get install libpfm4-dev)');
my (%pfm, %pmu_has);
for my $pmu (qw(netburst netburst_p)) {
	open my $fh, '-|', $dump, $pmu or die;
	while (<$fh>) {
		my @w = split ' ';
		if ($w[0] eq 'L') {
			$pfm{$w[1]} //= { name => $w[1], select => hex $w[2], escrsel => $w[3], masks => [] };
			$pmu_has{$pmu}{$w[1]} = 1;
		} elsif ($w[0] eq 'U' && $pmu eq 'netburst_p') {
			push @{$pfm{$w[1]}{masks}}, { name => $w[2], code => $w[3], dfl => $w[4] };
		}
	}
	close $fh or BAIL_OUT("t_events_pfm_dump $pmu failed");
}
is(scalar keys %{$pmu_has{netburst_p}}, 46, 'libpfm4 netburst_p lists 46 events');
is(scalar keys %{$pmu_has{netburst}}, 45, 'libpfm4 netburst lists 45 events');

for my $pe (sort { $a->{name} cmp $b->{name} } values %pfm) {
	my $n = $pe->{name};
	my $e = $byname{$n};
	ok($e, "libpfm4 event $n is ours" . ($e && $e->{name} ne $n ? " (as $e->{name})" : '')) or next;
	my $on = $e->{name};
	if ($pe->{select} == $e->{select}) { same("$on: event select 0x" . sprintf('%02x', $e->{select})); }
	else { differ('select', $on, sprintf('event select libpfm4 0x%02x, ours 0x%02x', $pe->{select}, $e->{select})); }
	if ($pe->{escrsel} == $e->{escrsel}) { same("$on: ESCR select $e->{escrsel}"); }
	else { differ('escrsel', $on, "ESCR select libpfm4 $pe->{escrsel}, ours $e->{escrsel}"); }
	# models: netburst = models other than 3, 4, 6; netburst_p = 3, 4, 6 (pfm_netburst_detect*)
	my $old = ($e->{models} & 0x27) ? 1 : 0;
	my $new = ($e->{models} & 0x58) ? 1 : 0;
	is(($pmu_has{netburst}{$n} ? 1 : 0) . ($pmu_has{netburst_p}{$n} ? 1 : 0), "$old$new", "$on: libpfm4 PMUs agree with models");
	my %vm = map { $_->{name} => $_ } @{$e->{vmasks}};
	my $pdfl = 0;
	for my $pm (@{$pe->{masks}}) {
		my $m = nb_mask($e, $pm->{name});
		if ($m) {
			if ($m->{bit} == $pm->{code}) { same("$on:$m->{name}: bit $m->{bit}" . ($m->{name} ne $pm->{name} ? " (libpfm4 $pm->{name})" : '')); }
			else { differ('bit', "$on:$m->{name}", "mask bit libpfm4 $pm->{code}, ours $m->{bit}"); }
			$pdfl |= 1 << $m->{bit} if $pm->{dfl};
		} elsif (my $v = $vm{$pm->{name}}) {
			if ($v->{kind} eq 'tag') {
				is($pm->{code}, 16 + $v->{arg}, "$on:$pm->{name}: virtual tag mask = TagValue bit $v->{arg}") and $matches++;
			} else {
				ok($t->{metrics}{$v->{arg}} && $t->{metrics}{$v->{arg}}{count} eq $on,
					"$on:$pm->{name}: virtual mask -> metric $v->{arg}") and $matches++;
			}
		} else {
			differ('mask-missing', "$on:$pm->{name}", 'libpfm4 mask we do not have');
		}
	}
	ok(($pdfl & ~$e->{dfl}) == 0, "$on: libpfm4 default masks are among ours");
	for my $m (@{$e->{masks}}) {
		next if grep { $_->{name} eq $m->{name} || $_->{name} eq ($m->{alias} // '') } @{$pe->{masks}};
		differ('ours-only', "$on:$m->{name}", 'mask libpfm4 does not have');
	}
}
for my $on (sort keys %$E) {
	next if grep { $byname{$_} && $byname{$_}{name} eq $on } keys %pfm;
	differ('not-in-libpfm4', $on, 'event libpfm4 does not list');
}

# --- allowed ESCRs, from the libpfm4 source
my $src = $ENV{LIBPFM4_SRC} // '/tmp/papisrc/libpfm-4.13.0';
my $hdr = "$src/lib/events/intel_netburst_events.h";
SKIP: {
	skip("allowed-ESCR check needs libpfm4's source: $hdr not found (set LIBPFM4_SRC)", 1) unless -r $hdr;
	# libpfm's ESCR numbering (index -> name): the pentium4_escrs[] order of
	# libpfm-3 (PAPI 7.0.0 src/libpfm-3.y/lib/pentium4_events.h), which
	# libpfm4's allowed_escrs[] still uses.
	my @lx = qw(BPU_ESCR0 IS_ESCR0 MOB_ESCR0 ITLB_ESCR0 PMH_ESCR0 IX_ESCR0 FSB_ESCR0 BSU_ESCR0
		MS_ESCR0 TC_ESCR0 TBPU_ESCR0 FLAME_ESCR0 FIRM_ESCR0 SAAT_ESCR0 U2L_ESCR0 DAC_ESCR0
		IQ_ESCR0 ALF_ESCR0 RAT_ESCR0 SSU_ESCR0 CRU_ESCR0 CRU_ESCR2 CRU_ESCR4
		BPU_ESCR1 IS_ESCR1 MOB_ESCR1 ITLB_ESCR1 PMH_ESCR1 IX_ESCR1 FSB_ESCR1 BSU_ESCR1
		MS_ESCR1 TC_ESCR1 TBPU_ESCR1 FLAME_ESCR1 FIRM_ESCR1 SAAT_ESCR1 U2L_ESCR1 DAC_ESCR1
		IQ_ESCR1 ALF_ESCR1 RAT_ESCR1 CRU_ESCR1 CRU_ESCR3 CRU_ESCR5);
	is(scalar @lx, 45, 'libpfm ESCR index table has 45 entries');
	my $p3 = $ENV{NB_PAPI_TREE} // '/tmp/papisrc/papi-7.0.0';
	if (open my $fh, '<', "$p3/src/libpfm-3.y/lib/pentium4_events.h") {
		local $/; my $s = <$fh>;
		my ($blk) = $s =~ /pentium4_escrs\[\]\s*=\s*\{(.*?)\n\};/s;
		my @names = $blk =~ /\.name\s*=\s*"(\w+)"/g;
		is("@names", "@lx", 'ESCR index table = libpfm-3 pentium4_escrs[] order');
	}
	is((grep { !exists $t->{escrs}{$_} } @lx), 0, 'every libpfm ESCR name is in pmu.txt');
	open my $fh, '<', $hdr or die; local $/; my $s = <$fh>; close $fh;
	my $nblk = 0;
	for my $blk (split /\n\t\/\*\s*\d+\s*\*\/\n/, $s) {
		my ($n) = $blk =~ /^\s*\{\s*\.name\s*=\s*"(\w+)"/ or next;
		my ($a, $b) = $blk =~ /\.allowed_escrs\s*=\s*\{\s*(-?\d+)\s*,\s*(-?\d+)\s*\}/ or next;
		$nblk++;
		my $e = $byname{$n} or next;
		my $theirs = join(',', sort map { $lx[$_] } grep { $_ >= 0 } $a, $b);
		my $ours = join(',', sort @{$e->{escrs}});
		if ($theirs eq $ours) { same("$e->{name}: allowed ESCRs $ours"); }
		else { differ('escrs', $e->{name}, "allowed ESCRs libpfm4 $theirs, ours $ours"); }
	}
	is($nblk, 46, 'parsed allowed_escrs of 46 libpfm4 events');
}

for my $k (sort keys %$X) {
	ok($used{$k}, "exception '$k' is still a real difference");
}
diag("libpfm4 cross-check: $matches matching facts, $exc known exceptions (native_events/libpfm4_exceptions.txt)");
done_testing();

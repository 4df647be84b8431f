#!/usr/bin/perl
# t_events_kernel_xcheck.t - cross-check our NetBurst event model against
# the Linux kernel's P4 facts transcribed in native_events/kernel_p4.txt
# (P4_EVENTS index, opcode = event select + ESCR select, ESCRs and counters
# per thread, .shared vs TS/TI, valid event-mask bits, P4_PEBS_METRIC and
# p4_pebs_bind_map).  Known differences: kexception lines of that file.
#   prove tests/events/t_events_kernel_xcheck.t   (after make -C native_events, or NBGEN=dir)
use strict;
use warnings;
use Test::More;
use File::Basename qw(dirname);
use Cwd qw(abs_path);
require(dirname(abs_path(__FILE__)) . '/t_events_lib.pl');
our ($NE);

my $t = nb_load();
my $E = $t->{events};
my $X = nb_exceptions("$NE/kernel_p4.txt", 'kexception');
my (%used, %kev, %kpebs, %kmodels);
my ($matches, $exc) = (0, 0);

open my $fh, '<', "$NE/kernel_p4.txt" or die;
while (<$fh>) {
	next if /^\s*(#|$)/;
	my @w = split ' ';
	if ($w[0] eq 'kevent') {
		my (undef, $i, $n, $sel, $esel, $e0, $e1, $c0, $c1, $sh, $em) = @w;
		die "kernel_p4.txt:$.: bad kevent\n" unless defined $em;
		$kev{$i} = { idx => $i, name => $n, select => hex $sel, escrsel => $esel, escr => [$e0, $e1],
			cntr => [[split /,/, $c0], [split /,/, $c1]], shared => $sh,
			emask => { map { split /:/ } grep { $_ ne '-' } split /,/, $em } };
	} elsif ($w[0] eq 'kpebs') {
		$kpebs{$w[1]} = { name => $w[2], pebs => hex $w[3], vert => hex $w[4] };
	} elsif ($w[0] eq 'kmodels') {
		my $m = 0; $m |= 1 << $_ for split /,/, $w[2];
		$kmodels{$w[1]} = $m;
	} elsif ($w[0] ne 'kexception') {
		die "kernel_p4.txt:$.: unknown record $w[0]\n";
	}
}
close $fh;
is(scalar keys %kev, 46, '46 P4_EVENTS transcribed');
is(join(',', sort { $a <=> $b } keys %kev), join(',', 0 .. 45), 'P4_EVENTS indices 0..45');

sub differ {
	my ($key, $subj, $what) = @_;
	if (exists $X->{"$key $subj"}) { $used{"$key $subj"} = 1; $exc++; pass("$subj: $what -- known: $X->{\"$key $subj\"}"); }
	else { fail("$subj: $what (no 'kexception $key $subj')"); }
}
sub same { $matches++; pass($_[0]); }

my %ours_by_k = map { $E->{$_}{kernel} => $E->{$_} } grep { $E->{$_}{kernel} != 255 } keys %$E;
for my $i (sort { $a <=> $b } keys %kev) {
	my $k = $kev{$i};
	my $e = $ours_by_k{$i};
	ok($e, "P4_EVENTS[$i] $k->{name} is one of our events") or next;
	my $n = $e->{name};
	ok(uc($n) eq $k->{name} || uc($e->{alias} // '') eq $k->{name}, "$n: kernel name $k->{name}") and $matches++;
	if ($k->{select} == $e->{select}) { same("$n: event select"); } else { differ('select', $n, "select kernel $k->{select}"); }
	if ($k->{escrsel} == $e->{escrsel}) { same("$n: ESCR select $e->{escrsel}"); }
	else { differ('escrsel', $n, "ESCR select kernel $k->{escrsel}, ours $e->{escrsel}"); }
	my %ke = map { $_ => 1 } @{$k->{escr}};
	my $kes = join(',', sort keys %ke);
	my $oes = join(',', sort @{$e->{escrs}});
	if ($kes eq $oes) { same("$n: ESCRs $oes"); } else { differ('escrs', $n, "ESCRs kernel $kes, ours $oes"); }
	for my $th (0, 1) {
		my $esc = $t->{escrs}{$k->{escr}[$th]};
		if ($esc && !grep({ !($esc->{counters} & (1 << $_)) } @{$k->{cntr}[$th]})) {
			same("$n: kernel thread-$th counters @{$k->{cntr}[$th]} are wired to $k->{escr}[$th] in pmu.txt");
		} else {
			differ('wiring', $n, "kernel thread-$th counters @{$k->{cntr}[$th]} are not wired to $k->{escr}[$th] (pmu.txt)");
		}
	}
	my $ti = grep { $_->{ts} eq 'TI' } @{$e->{masks}};
	if (($ti ? 1 : 0) == $k->{shared}) { same("$n: kernel shared=$k->{shared} matches TS/TI"); }
	else { differ('shared', $n, "kernel shared=$k->{shared}, ours " . ($ti ? 'TI' : 'TS')); }
	for my $kn (sort keys %{$k->{emask}}) {
		my $m = nb_mask($e, $kn);
		ok($m, "$n: kernel mask $kn is one of ours (name or alias)") or next;
		if ($m->{bit} == $k->{emask}{$kn}) { same("$n:$m->{name}: bit $m->{bit}"); }
		else { differ('bit', "$n:$m->{name}", "bit kernel $k->{emask}{$kn}, ours $m->{bit}"); }
	}
	my %kbits = map { $_ => 1 } values %{$k->{emask}};
	for my $m (@{$e->{masks}}) {
		if ($kbits{$m->{bit}}) { $matches++; next; }
		differ('not-allowed', "$n:$m->{name}", "bit $m->{bit} outside the kernel's .escr_emask");
	}
	my $km = $kmodels{$k->{name}} // 0x7f;
	is($e->{models}, $km, "$n: models agree with p4_event_match_cpu_model") and $matches++;
}
for my $n (sort grep { $E->{$_}{kernel} == 255 } keys %$E) {
	differ('not-in-kernel', $n, 'no P4_EVENTS index');
}

# replay metrics <-> P4_PEBS_METRIC / p4_pebs_bind_map
my %ours_pebs = map { $_->{kernel} => $_ } grep { $_->{kernel} } values %{$t->{metrics}};
is(join(',', sort { $a <=> $b } keys %ours_pebs), join(',', sort { $a <=> $b } keys %kpebs), 'every P4_PEBS_METRIC has our metric');
for my $i (sort { $a <=> $b } keys %kpebs) {
	my $m = $ours_pebs{$i} or next;
	is(lc $m->{name}, $kpebs{$i}{name}, "P4_PEBS_METRIC $i is $m->{name}") and $matches++;
	is(sprintf('%#x/%#x', $m->{pebs_enable}, $m->{matrix_vert}), sprintf('%#x/%#x', $kpebs{$i}{pebs}, $kpebs{$i}{vert}),
		"$m->{name}: IA32_PEBS_ENABLE/MATRIX_VERT as p4_pebs_bind_map") and $matches++;
	is($m->{count}, 'replay_event', "$m->{name}: counted by replay_event (P4_EVENT_REPLAY_EVENT)");
}

for my $k (sort keys %$X) { ok($used{$k}, "kexception '$k' is still a real difference"); }
diag("kernel cross-check: $matches matching facts, $exc known exceptions (native_events/kernel_p4.txt)");
done_testing();

#!/usr/bin/perl
# t_tag_libpfm4.t - libpfm4's execution-tagging idiom encoded by libpfm4
# 4.13 itself (Debian libpfm4, -lpfm, PMU netburst_p forced) and by our
# nb_encode: the same ESCR image (event select, event mask, TagEnable,
# TagValue) for the names PAPI's netburst preset table (papi_events.csv)
# and pfmon users write; the privilege bits (0-3) are left out (libpfm4
# sets T0 and T1, we the logical processor's).  One reasoned difference:
# a name with TAGn and no mask gets no event mask from libpfm4 (TAGn counts
# as its umask, so netburst_add_defaults is skipped), and our default masks
# (ALL) from us, as any name without masks does.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $src = $ENV{NB_SRC} or BAIL_OUT('NB_SRC not set');
my $enc = ($ENV{NB_UTILS_BIN} // "$ENV{NB_BUILD}/utils") . '/nb_encode';
-x $enc or BAIL_OUT("$enc not built");
my $tmp = tempdir(CLEANUP => 1);
system('gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', "$src/tests/events/t_tag_pfm_encode.c",
       '-o', "$tmp/pfmenc", '-lpfm') == 0
	or BAIL_OUT('cannot build t_tag_pfm_encode.c against -lpfm (apt-get install libpfm4-dev)');

my @names = qw(
	x87_FP_uop:ALL:TAG0 x87_FP_uop:ALL:TAG1 scalar_SP_uop:ALL:TAG1 scalar_DP_uop:ALL:TAG1
	64bit_MMX_uop:ALL:TAG2 128bit_MMX_uop:ALL:TAG2 packed_SP_uop:ALL:TAG2 packed_DP_uop:ALL:TAG2
	scalar_SP_uop:ALL:TAG0:TAG3 x87_FP_uop:ALL:TAG0:TAG1:TAG2:TAG3
	execution_event:NBOGUS0 execution_event:NBOGUS1 execution_event:NBOGUS2
	execution_event:NBOGUS0:NBOGUS1:NBOGUS2:NBOGUS3
);
my %pfm;
open my $fh, '-|', "$tmp/pfmenc", @names, 'x87_FP_uop:TAG1' or BAIL_OUT("pfmenc: $!");
while (<$fh>) {
	my @w = split ' ';
	$pfm{$w[1]} = $w[0] eq 'C' ? hex $w[2] : undef;
}
close $fh or BAIL_OUT('t_tag_pfm_encode failed');

sub ours {
	my ($name) = @_;
	my $out = `"$enc" --model=prescott "$name" 2>&1`;
	return $out =~ /ESCR \S+ msr 0x[0-9a-f]+ = (0x[0-9a-f]+)/ ? hex $1 : undef;
}

for my $n (@names) {
	my ($p, $o) = ($pfm{$n}, ours($n));
	ok(defined $p && defined $o && ($p & ~0xf) == ($o & ~0xf),
	   sprintf('%s: ESCR bits 4-30 libpfm4 %s, ours %s', $n,
		   defined $p ? sprintf('%#010x', $p & ~0xf) : 'refused',
		   defined $o ? sprintf('%#010x', $o & ~0xf) : 'refused'));
}
# the difference: libpfm4 no mask, ours ALL (mask bit 15 = ESCR bit 24)
{
	my ($p, $o) = ($pfm{'x87_FP_uop:TAG1'}, ours('x87_FP_uop:TAG1'));
	ok(defined $p && defined $o && ($p & ~0xf) == (($o & ~0xf) & ~(1 << 24)) && ($o & (1 << 24))
	   && !($p & 0x01fffe00), 'x87_FP_uop:TAG1: libpfm4 programs no event mask, we the default ALL; '
	   . 'tags the same (TagEnable, TagValue 2)');
}
done_testing();

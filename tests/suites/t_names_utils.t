#!/usr/bin/perl
# Native names through PAPI's own utilities under nbsim, on every model:
# papi_native_avail (listing, -e details), papi_xml_event_info (valid XML,
# checked by xmllint), papi_decode, and error messages naming the cause.
use strict;
use warnings;
use Test::More;

my $u = "$ENV{NB_PAPI_SRC}/utils";
my $nbsim = $ENV{NBSIM};

sub run { my $cmd = join ' ', @_; my $out = `$cmd 2>&1`; return ($? >> 8, $out); }

# Per model: what must and must not be offered.
my %models = (
	willamette => { model => 1, l3 => 0, completed => 0 },
	northwood  => { model => 2, l3 => 0, completed => 0 },
	prescott   => { model => 3, l3 => 0, completed => 1 },
	cedarmill  => { model => 6, l3 => 0, completed => 1 },
	xeonmp     => { model => 2, l3 => 1, completed => 0 },
);
my @metrics = qw(1stL_cache_load_miss_retired 2ndL_cache_load_miss_retired
	DTLB_load_miss_retired DTLB_store_miss_retired DTLB_all_miss_retired
	Tagged_mispred_branch MOB_load_replay_retired split_load_retired
	split_store_retired Memory_loads Memory_stores Memory_loads_stores
	packed_SP_retired packed_DP_retired scalar_SP_retired scalar_DP_retired
	64_bit_MMX_retired 128_bit_MMX_retired X87_FP_retired
	X87_SIMD_memory_moves_retired);
my %is_metric = map { $_ => 1 } @metrics;

for my $m (sort keys %models) {
	my $x = $models{$m};
	my ($st, $out) = run("$nbsim --model=$m -- $u/papi_native_avail");
	is($st, 0, "$m: papi_native_avail runs");
	my (%ev, $nmask, $cur, %masks);
	for (split /\n/, $out) {
		if (/^\| p4netburst:::(\S+)\s/) { $cur = $1; $ev{$cur} = 1; }
		elsif (/^\|\s+:(\S+)\s/ && $cur) { $nmask++; $masks{"$cur:$1"} = 1; }
	}
	my $nmet = grep { $is_metric{$_} } keys %ev;
	my $nev = keys(%ev) - $nmet;
	is($nmet, scalar @metrics, "$m: all " . scalar(@metrics) . " tagged metrics listed");
	cmp_ok($nev, '>=', 46, "$m: $nev events, $nmask masks listed");
	is(exists $ev{instr_completed} ? 1 : 0, $x->{completed},
	   "$m: instr_completed " . ($x->{completed} ? "offered" : "not offered"));
	is(exists $masks{'BSQ_cache_reference:RD_3rdL_MISS'} ? 1 : 0, $x->{l3},
	   "$m: L3 masks " . ($x->{l3} ? "offered" : "not offered"));
	ok(exists $masks{'BSQ_cache_reference:RD_2ndL_MISS'}, "$m: L2 masks offered");
	# libpfm4's virtual masks, accepted names, are listed too (issue 15:
	# TAGn was missing): TAG0..TAG3 under each upstream FP/SIMD event,
	# replay_event's metric spellings (tests/names adds each one).
	my @tagged = qw(x87_FP_uop scalar_SP_uop scalar_DP_uop packed_SP_uop packed_DP_uop
			64bit_MMX_uop 128bit_MMX_uop x87_SIMD_moves_uop);
	my @miss = grep { !exists $masks{$_} } map { my $e = $_; map { "$e:TAG$_" } 0 .. 3 } @tagged;
	ok(!@miss, "$m: TAG0..TAG3 listed under the 8 upstream FP/SIMD events") or diag("missing @miss");
	is(scalar(grep { /:TAG\d$/ } keys %masks), 32, "$m: and under no other event");
	@miss = grep { !exists $masks{"replay_event:$_"} } qw(L1_LD_MISS L2_LD_MISS DTLB_LD_MISS
		DTLB_ST_MISS DTLB_ALL_MISS BR_MSP MOB_LD_REPLAY SP_LD_RET SP_ST_RET);
	ok(!@miss, "$m: replay_event's metric spellings listed") or diag("missing @miss");
	like($out, qr/^\|\s+:TAG1\s+\|\n\|\s+Tag the uops with TagValue bit 1 /m,
	     "$m: a TAGn entry carries its description");
	like($out, qr/Total events reported: \d+/, "$m: a total is printed");
	diag("$m: $nev events, $nmask masks, $nmet metrics");

	($st, $out) = run("$nbsim --model=$m -- $u/papi_xml_event_info > /tmp/nb_xml_$$.xml");
	is($st, 0, "$m: papi_xml_event_info runs");
	($st, $out) = run("xmllint --noout /tmp/nb_xml_$$.xml");
	is($st, 0, "$m: papi_xml_event_info output is well-formed XML (xmllint)") or diag($out);
	($st, $out) = run("xmllint --xpath 'count(//event[starts-with(\@name,\"p4netburst:::\")])' /tmp/nb_xml_$$.xml");
	chomp $out;
	# papi_xml_event_info lists what PAPI_add_event accepts: every event
	# and every tagged metric.
	is($out + 0, $nev + $nmet, "$m: the XML holds every event and tagged metric ($out)");
	unlink "/tmp/nb_xml_$$.xml";
}

my ($st, $out) = run("$nbsim -- $u/papi_native_avail -e p4netburst:::MOB_load_replay_retired");
is($st, 0, 'papi_native_avail -e METRIC runs');
like($out, qr/Event name:\s+p4netburst:::MOB_load_replay_retired/, '-e shows the metric');
like($out, qr/Description:.*replay_event:NBOGUS.*MOB_load_replay:PARTIAL_DATA:UNALGN_ADDR/s,
     '-e names the counting event and the helper');
($st, $out) = run("$nbsim -- $u/papi_native_avail -e p4netburst:::replay_event:NBOGUS:L1_LD_MISS");
like($out, qr/Event name:\s+p4netburst:::1stL_cache_load_miss_retired/,
     '-e with libpfm4\'s spelling shows the metric');
($st, $out) = run("$nbsim -- $u/papi_native_avail -e p4netburst:::branch_retired");
like($out, qr/:MMTP\b.*:MMTM\b/s, '-e EVENT lists its masks');
like($out, qr/Modifiers: u, k, thr/, '-e EVENT lists the modifiers');
# Modifiers as qualifiers, after the masks, with descriptions (as
# perf_event components list ":u=0|1"); precise only where PEBS is allowed.
like($out, qr/:MMTM -- .*\n\s+Info:\s+:u=0\|1 -- count at user level.*\n\s+Info:\s+:k=0\|1 -- .*\n\s+Info:\s+:thr=0\.\.15 -- CCCR Compare.*\n\s+Info:\s+:cmpl=0\|1 -- .*\n\s+Info:\s+:edge=0\|1 -- .*\n\s+Info:\s+:thread=any\|single\|both\|none -- CCCR ActiveThread/,
     '-e EVENT lists the six modifiers as qualifiers after the masks, with descriptions');
unlike($out, qr/:precise=0\|1/, 'branch_retired: no precise qualifier (not a PEBS event)');
($st, $out) = run("$nbsim -- $u/papi_native_avail -e p4netburst:::replay_event");
like($out, qr/Info:\s+:precise=0\|1 -- PEBS/, 'replay_event: the precise qualifier is listed');
($st, $out) = run("$nbsim -- $u/papi_native_avail");
like($out, qr/\| p4netburst:::Memory_loads\s.*?\n(\|\s{12}.*\n)*\|\s+:u=0\|1\s/,
     'the full listing shows qualifiers under a tagged metric');
($st, $out) = run("$nbsim -- $u/papi_native_avail -e p4netburst:::instr_retired:NBOGUSTAG:thr=2:thread=both");
like($out, qr/Event name:\s+p4netburst:::instr_retired:NBOGUSTAG:thr=2:thread=both/,
     '-e with modifiers shows the canonical name');
($st, $out) = run("$nbsim -- $u/papi_native_avail -e p4netburst:::no_such_event");
like($out, qr/could not be found/, '-e of an unknown event says so');

($st, $out) = run("$nbsim -- $u/papi_decode -a");
is($st, 0, 'papi_decode -a runs');
like($out, qr/^name,derived,postfix,short_descr,long_descr,note/m, 'papi_decode prints its CSV header');
like($out, qr/^PAPI_TOT_INS,NOT_DERIVED,.*p4netburst:::instr_retired/m,
     'papi_decode shows PAPI_TOT_INS with its native event');
my $bad = grep { !/^(name,|PAPI_\w+,|$)/ } split /\n/, $out;
is($bad, 0, 'every papi_decode line is a preset row');

# Error messages name the cause (PAPI prints them with PAPI_VERBOSE).
for ([ 'instr_retired:NOSUCHMASK', qr/no mask or modifier 'NOSUCHMASK'/ ],
     [ 'instr_retired:thr=99', qr/threshold must be 0\.\.15, not '99'/ ],
     [ 'instr_retired:precise', qr/instr_retired cannot be precise/ ],
     [ 'no_such_event', qr/unknown NetBurst event or metric 'no_such_event'/ ],
     [ 'instr_completed', qr/instr_completed does not exist on this CPU \(model 2, northwood\); it exists on prescott, cedarmill/, 'northwood' ]) {
	my ($n, $re, $m) = @$_;
	$m //= 'prescott';
	($st, $out) = run("PAPI_VERBOSE=1 $nbsim --model=$m -- $u/papi_command_line p4netburst:::$n");
	like($out, $re, "$n: the message names the cause");
	like($out, qr/Failed adding: p4netburst:::\Q$n\E/, "$n: refused");
	unlike($out, qr/RD_3rdL/, "$n: no preset noise about L3 masks");
}

done_testing();
